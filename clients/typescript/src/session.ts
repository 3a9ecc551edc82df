import type { Middleware } from 'openapi-fetch';

const COOKIE = 'PHPSESSID';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where a realm's session and CSRF token come from. */
export type Realm = 'developer' | 'admin';

/**
 * One session, as one browser holds it: the `PHPSESSID` cookie the service sets, and the CSRF
 * token of that session, fetched from `GET /<realm>/session` before the first write and again
 * whenever the service moves the session to a new id (a login, a registration, a logout), which
 * rotates the token. Each write carries both; reads carry the cookie.
 */
export function sessionMiddleware(realm: Realm, baseUrl: string, fetcher: typeof fetch): Middleware {
  let cookie: string | null = null;
  let token: string | null = null;

  const keep = (headers: Headers) => {
    // Several Set-Cookie lines for one cookie in one answer: the last one holds, as in a browser.
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      if (pair.slice(0, at) !== COOKIE) continue;
      const value = pair.slice(at + 1);
      const expired = attributes.some(
        (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()),
      );
      const next = value === '' || expired ? null : value;
      if (next !== cookie) token = null;
      cookie = next;
    }
  };

  const csrfToken = async (): Promise<string> => {
    if (token !== null) return token;
    const response = await fetcher(`${baseUrl}/${realm}/session`, {
      headers: cookie === null ? {} : { Cookie: `${COOKIE}=${cookie}` },
    });
    keep(response.headers);
    const body = (await response.json()) as { data?: { csrf_token?: string } };
    const fresh = body.data?.csrf_token;
    if (!response.ok || typeof fresh !== 'string') {
      throw new Error(`GET /${realm}/session answered ${response.status} without a CSRF token`);
    }
    token = fresh;
    return fresh;
  };

  return {
    async onRequest({ request }) {
      if (!SAFE.has(request.method)) request.headers.set('X-CSRF-Token', await csrfToken());
      if (cookie !== null) request.headers.set('Cookie', `${COOKIE}=${cookie}`);
      return request;
    },
    onResponse({ response }) {
      keep(response.headers);
      return undefined;
    },
  };
}
