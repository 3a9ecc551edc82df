import { ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';

export const CLIENT_ID = 'platform';
export const CLIENT_SECRET = 'the-platform-secret-at-the-provider';
// The browser is walked by the test, which hands the callback's query to the service itself: any address will do.
export const REDIRECT_URL = 'http://127.0.0.1/api/v1/admin/sso/callback';

/** oidc-provider 9 running in a child process on a loopback port 0 (./provider.mjs). */
export interface TestProvider {
  issuer: string;
  setGroups(sub: string, groups: string[]): Promise<void>;
  /** Signs `sub` in at the provider's development login form and consents: the URL it redirects back to. */
  authorize(authorizationUrl: string, sub: string): Promise<URL>;
  close(): Promise<void>;
}

/** A browser's cookie jar for one origin, as far as the provider's interactions need it. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** The hidden and named inputs of the development interaction's form, as a browser would post them. */
function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in the provider's page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(tag)?.[1];
    if (name) fields[name] = /value="([^"]*)"/.exec(tag)?.[1] ?? '';
  }
  return { action, fields };
}

async function walk(start: string, sub: string, until: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(start);
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(until)) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const { action, fields } = formOf(await res.text());
    if (fields.login !== undefined) Object.assign(fields, { login: sub, password: 'any' });
    const posted = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    jar.take(posted);
    const next = posted.headers.get('location');
    if (!next) throw new Error(`the provider answered ${posted.status}: ${(await posted.text()).slice(0, 300)}`);
    url = new URL(next, url);
  }
  throw new Error('the provider never redirected back');
}

/** `redirectUrl`: where the provider sends the browser back; a browser story's service's own callback. */
export async function startProvider(redirectUrl = REDIRECT_URL): Promise<TestProvider> {
  const child: ChildProcess = fork(join(__dirname, 'provider.mjs'), [], {
    env: { ...process.env, CLIENT_ID, CLIENT_SECRET, REDIRECT_URI: redirectUrl },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
  return {
    issuer: `http://127.0.0.1:${port}`,
    setGroups: (sub, groups) =>
      new Promise((resolve) => {
        child.once('message', () => resolve());
        child.send({ sub, groups });
      }),
    authorize: (authorizationUrl, sub) => walk(authorizationUrl, sub, redirectUrl),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
