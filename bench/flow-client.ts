/**
 * The load generator's side of (d): JSON POSTs over keep-alive connections with a member's cookie
 * and CSRF token. supertest, which registers the members, cost about 2 ms of CPU a flow on the
 * two cores the service also runs on; this costs a fraction of it, so that (d) measures the
 * service rather than the client. Cookies the service sets (a rolling session renews its
 * cookie) replace the ones held, as a browser would.
 */
import { Agent, request } from 'node:http';

export interface FlowAnswer {
  status: number;
  body: string;
}

export class FlowClient {
  private readonly cookies = new Map<string, string>();

  /** `cookieHeader`: the Cookie header a browser would send, e.g. from supertest's jar. */
  constructor(
    private readonly url: URL,
    private readonly agent: Agent,
    cookieHeader: string,
  ) {
    for (const pair of cookieHeader.split(/;\s*/)) this.set(pair);
  }

  post(path: string, csrfToken: string, body: unknown = {}): Promise<FlowAnswer> {
    const payload = JSON.stringify(body);
    const cookie = this.cookieHeader();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method: 'POST',
          path,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            'x-csrf-token': csrfToken,
            ...(cookie === '' ? {} : { cookie }),
          },
        },
        (res) => {
          this.keep(res.headers['set-cookie']);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Set-Cookie lines: the name=value before the first attribute replaces what is held. */
  private keep(setCookies: string[] | undefined): void {
    for (const line of setCookies ?? []) {
      const end = line.indexOf(';');
      this.set(end === -1 ? line : line.slice(0, end));
    }
  }

  private set(pair: string): void {
    const at = pair.indexOf('=');
    if (at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** Keep-alive connections for `inFlight` flows at once; closed with `destroy()`. */
export function flowAgent(inFlight: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: inFlight * 2 });
}
