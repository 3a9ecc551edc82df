/** An OpenAPI document's operations, rendered for people: the partner reference and the full contract share it. */
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  responses?: Record<string, { description?: string }>;
}

export interface ContractDocument {
  info?: { title?: string; version?: string };
  paths: Record<string, Record<string, Operation>>;
}

export function operationsOf(document: ContractDocument) {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })),
  );
}

/** Text with `code` spans, as the contract writes commands and codes. */
export function Prose({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

/** A description: a list when it is a Markdown list of reasons (one "- " line each), else one line. */
function Described({ text }: { text: string }) {
  const lines = text.split('\n');
  if (lines.length === 1 || !lines.every((line) => line.startsWith('- '))) return <Prose text={text} />;
  return (
    <ul class="reasons">
      {lines.map((line) => (
        <li key={line}>
          <Prose text={line.slice(2)} />
        </li>
      ))}
    </ul>
  );
}

/** Where an operation's card is on the page, for the contents. */
export const anchorOf = (method: string, path: string) =>
  `op-${method.toLowerCase()}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

/** The operations by tag, each a link to its card: a long contract is read by finding one call. */
export function Contents({ document }: { document: ContractDocument }) {
  const byTag = new Map<string, { path: string; method: string; summary: string }[]>();
  for (const { path, method, operation } of operationsOf(document)) {
    const tag = operation.tags?.[0] ?? 'other';
    if (!byTag.has(tag)) byTag.set(tag, []);
    byTag.get(tag)!.push({ path, method, summary: operation.summary ?? '' });
  }
  return (
    <nav aria-label="Contents" class="card contents">
      <h2>Contents</h2>
      {[...byTag].map(([tag, operations]) => (
        <section key={tag}>
          <h3>{tag}</h3>
          <ul>
            {operations.map(({ path, method, summary }) => (
              <li key={`${method} ${path}`}>
                <a href={`#${anchorOf(method, path)}`}>
                  {method} <code>{path}</code>
                </a>{' '}
                <small>{summary}</small>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}

/** Each status an operation answers with, and why: the reasons of one status as a list. */
export function Answers({
  responses,
  caption,
}: {
  responses: Record<string, { description?: string }>;
  caption?: string;
}) {
  return (
    <table class="answers">
      {caption && <caption>{caption}</caption>}
      <tbody>
        {Object.entries(responses).map(([status, response]) => (
          <tr key={status}>
            <th scope="row">{status}</th>
            <td>
              <Described text={response.description ?? ''} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Every operation's card. Its answers (nearly 900 rows, 1,400 reasons over the whole contract) are
 * folded under "Answers (n)", opened where the reader looks: laid out all at once they made a
 * page of 5,000 elements that a loaded browser took over two minutes to check with axe (issue 46).
 */
export function Operations({ document }: { document: ContractDocument }) {
  return (
    <>
      {operationsOf(document).map(({ path, method, operation }) => {
        const responses = operation.responses ?? {};
        return (
          <article class="operation card" key={`${method} ${path}`} id={anchorOf(method, path)}>
            <h2>
              <span class={`method ${method.toLowerCase()}`}>{method}</span> <code>{`/api/v1${path}`}</code>
            </h2>
            <p>
              <Prose text={operation.description ?? operation.summary ?? ''} />
            </p>
            <details class="operation-answers">
              <summary>Answers ({Object.keys(responses).length})</summary>
              <Answers responses={responses} />
            </details>
          </article>
        );
      })}
    </>
  );
}
