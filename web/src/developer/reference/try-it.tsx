import { useState } from 'preact/hooks';

/** What the open API answered the browser: shown as a partner's server would receive it. */
interface Answered {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

type Tried =
  { state: 'idle' } | { state: 'sending' } | { state: 'answered'; answer: Answered } | { state: 'unreachable' };

/** A body as sent, indented when it is JSON. */
function readable(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Calls one open endpoint from this page with the API id and key typed above, and shows the status,
 * the header fields and the body. Without cookies: the open API knows a partner by its key alone.
 */
export function TryIt({
  method,
  path,
  apiid,
  apikey,
  label,
}: {
  method: string;
  path: string;
  apiid: string;
  apikey: string;
  label: string;
}) {
  const [tried, setTried] = useState<Tried>({ state: 'idle' });
  const missing = !apiid.trim() || !apikey.trim();
  const send = async () => {
    setTried({ state: 'sending' });
    try {
      const response = await fetch(`/api/v1${path}`, {
        method,
        headers: { 'X-API-ID': apiid.trim(), 'X-API-Key': apikey.trim() },
        credentials: 'omit',
        cache: 'no-store',
      });
      const body = readable(await response.text());
      setTried({
        state: 'answered',
        answer: { status: response.status, statusText: response.statusText, headers: [...response.headers], body },
      });
    } catch {
      setTried({ state: 'unreachable' });
    }
  };
  return (
    <section class="try-it" aria-label={`Try ${label}`}>
      <button type="button" class="primary" disabled={missing || tried.state === 'sending'} onClick={() => void send()}>
        Send {label}
      </button>
      {missing && <span class="hint"> Type your API id and key above to send this call.</span>}
      <p role="status" class="answered">
        {tried.state === 'sending'
          ? 'Sending…'
          : tried.state === 'unreachable'
            ? 'The service cannot be reached: check the connection and try again.'
            : tried.state === 'answered'
              ? `Answered ${tried.answer.status} ${tried.answer.statusText}`.trim()
              : ''}
      </p>
      {tried.state === 'answered' && (
        <>
          <h4>Header fields</h4>
          <table class="answer-headers">
            <tbody>
              {tried.answer.headers.map(([name, value]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td>
                    <code>{value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4>Body</h4>
          <pre tabIndex={0} aria-label={`Body of the answer to ${label}`}>
            <code>{tried.answer.body}</code>
          </pre>
        </>
      )}
    </section>
  );
}
