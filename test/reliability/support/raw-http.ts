import { randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, OutgoingHttpHeaders, request as httpRequest } from 'node:http';

/**
 * HTTP as the fuzz sends it (issue 7, reliability: fuzz): one request a connection with its headers
 * exactly as given, and the sessions of the callers it sends as, established over the same wire.
 */

const API = '/api/v1';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface Session {
  cookie: string;
  token: string;
  /** A token this session no longer takes: the one before its login, or one of the right form it never had. */
  stale: string;
}

/** The wire to the service listening on 127.0.0.1:`port`. */
export function rawHttp(port: number) {
  /** One request over its own connection, headers exactly as given: an array value is sent as that many header lines. */
  function send(method: string, target: string, headers: OutgoingHttpHeaders, body?: Buffer | string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: target, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  function sessionCookieOf(reply: Reply): string {
    const cookie = (reply.headers['set-cookie'] ?? []).find(
      (c) => c.startsWith('PHPSESSID=') && !c.startsWith('PHPSESSID=;'),
    );
    if (!cookie) throw new Error(`no session cookie in ${reply.status} ${reply.text}`);
    return cookie.split(';')[0]!;
  }

  async function tokenOf(cookie: string): Promise<string> {
    const reply = await send('GET', `${API}/developer/session`, { cookie });
    return JSON.parse(reply.text).data.csrf_token as string;
  }

  async function anonymousSession(): Promise<Session> {
    const reply = await send('GET', `${API}/developer/session`, {});
    return {
      cookie: sessionCookieOf(reply),
      token: JSON.parse(reply.text).data.csrf_token as string,
      stale: randomBytes(32).toString('base64url'),
    };
  }

  /** A session logged in at `path` with these credentials, and its current CSRF token. */
  async function loggedIn(
    path: '/developer/login' | '/admin/login',
    credentials: { username: string; password: string },
  ): Promise<Session> {
    const anonymous = await anonymousSession();
    const reply = await send(
      'POST',
      `${API}${path}`,
      { cookie: anonymous.cookie, 'x-csrf-token': anonymous.token, 'content-type': 'application/json' },
      JSON.stringify({ username: credentials.username, password: credentials.password }),
    );
    if (reply.status !== 200) throw new Error(`could not log in at ${path}: ${reply.status} ${reply.text}`);
    const cookie = sessionCookieOf(reply);
    return { cookie, token: await tokenOf(cookie), stale: anonymous.token };
  }

  return { send, anonymousSession, loggedIn };
}
