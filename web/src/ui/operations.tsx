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

export function Operations({ document, example }: { document: ContractDocument; example?: (path: string, method: string) => string | null }) {
  return (
    <>
      {operationsOf(document).map(({ path, method, operation }) => {
        const call = example?.(path, method);
        return (
          <article class="operation card" key={`${method} ${path}`}>
            <h2>
              <span class={`method ${method.toLowerCase()}`}>{method}</span> <code>/api/v1{path}</code>
            </h2>
            <p>{operation.description ?? operation.summary}</p>
            <table>
              <caption>Answers</caption>
              <tbody>
                {Object.entries(operation.responses ?? {}).map(([status, response]) => (
                  <tr key={status}>
                    <th scope="row">{status}</th>
                    <td>{response.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {call && (
              <>
                <h3>Try it</h3>
                <pre tabIndex={0} aria-label={`curl call for ${method} ${path}`}>
                  <code>{call}</code>
                </pre>
              </>
            )}
          </article>
        );
      })}
    </>
  );
}
