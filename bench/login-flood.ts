/**
 * (g) A legitimate login while one anonymous client floods the login with made-up usernames
 * (issue 14): the flood comes from 127.0.0.2 over many connections, the member logs in from
 * 127.0.0.1, against the service with its default limits. Measured before the flood and during it.
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startService } from './service';
import { BenchSettings } from './settings';
import { Distribution, distribution } from './stats';

export interface LoginFloodFigures {
  connections: number;
  quiet: Distribution;
  flooded: Distribution;
  /** Answers the flood got, by status: 401 until the address is blocked, then 429. */
  flood_answers: Record<string, number>;
  /** Legitimate logins that were not answered 200. */
  legit_failures: number;
}

interface Reply {
  status: number;
  cookie?: string;
  body: string;
}

/** One HTTP call through this agent (and so from its local address), with the session cookie given. */
function call(
  url: string,
  agent: Agent,
  method: 'GET' | 'POST',
  path: string,
  cookie?: string,
  token?: string,
  body?: object,
): Promise<Reply> {
  const payload = body ? JSON.stringify(body) : undefined;
  const headers: Record<string, string> = {};
  if (cookie) headers.Cookie = cookie;
  if (token) headers['X-CSRF-Token'] = token;
  if (payload)
    Object.assign(headers, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(payload)),
    });
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/api/v1${path}`, { method, agent, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.on('end', () => {
        const set = (res.headers['set-cookie'] ?? []).find(
          (c) => c.startsWith('PHPSESSID=') && !c.startsWith('PHPSESSID=;'),
        );
        resolve({ status: res.statusCode ?? 0, cookie: set?.slice(0, set.indexOf(';')), body: text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** A session of its own on this agent: its cookie and CSRF token. */
async function session(url: string, agent: Agent): Promise<{ cookie: string; token: string }> {
  const reply = await call(url, agent, 'GET', '/developer/session');
  if (reply.status !== 200 || !reply.cookie)
    throw new Error(`GET /developer/session answered ${reply.status}: ${reply.body}`);
  return { cookie: reply.cookie, token: (JSON.parse(reply.body) as { data: { csrf_token: string } }).data.csrf_token };
}

/** Logs the member in `count` times, one after the other, each from a session of its own; the login's time only. */
async function legitLogins(url: string, agent: Agent, member: { username: string; password: string }, count: number) {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < count; i++) {
    const { cookie, token } = await session(url, agent);
    const started = performance.now();
    const reply = await call(url, agent, 'POST', '/developer/login', cookie, token, member);
    times.push(performance.now() - started);
    if (reply.status !== 200) failures += 1;
  }
  return { times, failures };
}

export async function benchLoginFlood(settings: BenchSettings): Promise<LoginFloodFigures> {
  const service = await startService();
  const legit = new Agent({ keepAlive: true, localAddress: '127.0.0.1' });
  const flooder = new Agent({ keepAlive: true, localAddress: '127.0.0.2', maxSockets: settings.concurrency });
  try {
    const member = { username: `bench${Date.now().toString(36)}`, password: 'bench-password-1' };
    const { cookie, token } = await session(service.url, legit);
    const registered = await call(service.url, legit, 'POST', '/developer/register', cookie, token, {
      ...member,
      email: 'bench@example.com',
    });
    if (registered.status !== 200) throw new Error(`registration answered ${registered.status}: ${registered.body}`);
    const rounds = 30;
    const quiet = await legitLogins(service.url, legit, member, rounds);

    const answers: Record<string, number> = {};
    let flooding = true;
    let guess = 0;
    const flood = async () => {
      const own = await session(service.url, flooder);
      while (flooding) {
        guess += 1;
        const reply = await call(service.url, flooder, 'POST', '/developer/login', own.cookie, own.token, {
          username: `ghost${guess}`,
          password: 'guess-password',
        });
        answers[reply.status] = (answers[reply.status] ?? 0) + 1;
      }
    };
    const floods = Array.from({ length: settings.concurrency }, flood);
    // Let the flood reach its stride before the member tries.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const flooded = await legitLogins(service.url, legit, member, rounds);
    flooding = false;
    await Promise.all(floods);
    return {
      connections: settings.concurrency,
      quiet: distribution(quiet.times),
      flooded: distribution(flooded.times),
      flood_answers: answers,
      legit_failures: quiet.failures + flooded.failures,
    };
  } finally {
    legit.destroy();
    flooder.destroy();
    await service.stop();
  }
}
