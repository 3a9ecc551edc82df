import { anchorOf, Answers, Prose } from '../../ui/operations';
import { CopyButton } from './copy';
import { exampleOf, typeLabel, type Schema, type Schemas } from './schema';
import { SchemaTree } from './schema-tree';
import { TryIt } from './try-it';

interface Content {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface OpenOperation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  responses: Record<string, { description?: string; content?: Record<string, Content> }>;
}

interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
  description?: string;
}

export interface PartnerContract {
  paths: Record<string, Record<string, OpenOperation>>;
  components: { schemas: Schemas; securitySchemes: Record<string, SecurityScheme> };
}

/** What the call sends: the key headers its security names, then its own parameters. */
function parametersOf(operation: OpenOperation, contract: PartnerContract) {
  const headers = (operation.security ?? []).flatMap((requirement) =>
    Object.keys(requirement).flatMap((scheme) => {
      const s = contract.components.securitySchemes[scheme];
      return s?.type === 'apiKey' && s.name
        ? [{ name: s.name, in: s.in ?? 'header', required: true, type: 'string', description: s.description ?? '' }]
        : [];
    }),
  );
  const own = (operation.parameters ?? []).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required ?? false,
    type: p.schema ? typeLabel(p.schema, contract.components.schemas) : 'string',
    description: p.description ?? '',
  }));
  return [...headers, ...own];
}

/** The contract's example of the answer, else one built from its schema. */
function exampleAnswer(content: Content | undefined, schemas: Schemas): string | null {
  if (!content) return null;
  const given = content.example ?? Object.values(content.examples ?? {})[0]?.value;
  const value = given ?? (content.schema ? exampleOf(content.schema, schemas) : null);
  return value === null ? null : JSON.stringify(value, null, 2);
}

/**
 * A curl call for the shell: the key comes from PLATFORM_API_KEY, and a shell without it says so
 * (`${VAR:?message}`) instead of sending an empty key and reading a 401.
 */
function curlFor(method: string, path: string, apiid: string | null): string {
  return [
    `curl -sS${method === 'GET' ? '' : ` -X ${method}`} '${location.origin}/api/v1${path}' \\`,
    `  -H 'X-API-ID: ${apiid ?? '<your API id>'}' \\`,
    `  -H "X-API-Key: \${PLATFORM_API_KEY:?set PLATFORM_API_KEY to your API key}"`,
  ].join('\n');
}

interface EndpointProps {
  method: string;
  path: string;
  operation: OpenOperation;
  contract: PartnerContract;
  apiid: string | null;
  trial: { apiid: string; apikey: string };
}

/** One open endpoint: what it takes, what it answers (fields and an example), a curl call and a try. */
export function Endpoint({ method, path, operation, contract, apiid, trial }: EndpointProps) {
  const label = `${method} ${path}`;
  const { schemas } = contract.components;
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
  const content = success?.[1].content?.['application/json'];
  const example = exampleAnswer(content, schemas);
  const curl = curlFor(method, path, apiid);
  return (
    <article class="operation card" id={anchorOf(method, path)} aria-labelledby={`${anchorOf(method, path)}-title`}>
      <h2 id={`${anchorOf(method, path)}-title`}>
        <span class={`method ${method.toLowerCase()}`}>{method}</span> <code>{`/api/v1${path}`}</code>
      </h2>
      <p>
        <Prose text={operation.description ?? operation.summary ?? ''} />
      </p>

      <h3>Parameters</h3>
      <table class="parameters">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">In</th>
            <th scope="col">Type</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {parametersOf(operation, contract).map((p) => (
            <tr key={`${p.in} ${p.name}`}>
              <th scope="row" data-label="Name">
                <code>{p.name}</code>
                {p.required ? ' (required)' : ' (optional)'}
              </th>
              <td data-label="In">{p.in}</td>
              <td data-label="Type">{p.type}</td>
              <td data-label="Meaning">{p.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">Nothing else: a query string is refused (422, unknown_query_parameter).</p>

      {success && content?.schema && (
        <>
          <h3>Answer {success[0]}: its fields</h3>
          <SchemaTree schema={content.schema} schemas={schemas} />
        </>
      )}
      {example && (
        <>
          <h3>Example answer</h3>
          <pre tabIndex={0} aria-label={`Example answer of ${label}`}>
            <code>{example}</code>
          </pre>
          <CopyButton text={example} label="Copy the example" name={`Copy the example answer of ${label}`} />
        </>
      )}

      <h3>Other answers</h3>
      <Answers
        responses={Object.fromEntries(
          Object.entries(operation.responses).filter(([status]) => status !== success?.[0]),
        )}
      />

      <h3>Call it with curl</h3>
      <pre tabIndex={0} aria-label={`curl call for ${label}`}>
        <code>{curl}</code>
      </pre>
      <CopyButton text={curl} label="Copy the curl call" name={`Copy the curl call for ${label}`} />

      <h3>Try it</h3>
      <TryIt method={method} path={path} apiid={trial.apiid} apikey={trial.apikey} label={label} />
    </article>
  );
}
