import { mkdtempSync, rmSync } from 'node:fs';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pino from 'pino';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createPlatform, Platform } from '../../src/app';
import { EXPIRY_WATCH_ACTOR } from '../../src/credential/expiry-watch';
import { Checked, ContractChecker } from './contract';
import { parseSettings, Settings } from '../../src/config';
import { createHttpServer } from '../../src/shared/http/server';
import { createLogger } from '../../src/log';
import { parseStoreConfig } from '../../src/stores/config';
import { RecordedEvent, START, Stores } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';

export interface TestPlatform {
  platform: Platform;
  server: Server;
  dataDir: string;
  /** Every log line the service wrote. */
  logLines: string[];
  /** What the service showed on the console, outside the log (a generated administrator password). */
  announcements: string[];
  /** A client with its own cookie jar, like one browser. */
  client(): request.Agent;
  /** Every event in the global log. */
  allEvents(): Promise<RecordedEvent[]>;
  /** Answers the service gave that the served contract does not document; close() fails on any. */
  contractProblems: string[];
  /** Every answer judged against the contract: operation and status. */
  answered: Checked[];
  close(): Promise<void>;
}

/**
 * The embedded stores on `dir`, or, when EVENTSTORE_URL and MONGODB_URL are set
 * (`npm run test:production`), the production servers with a MongoDB database of this directory's
 * own, so read models and sessions start empty while the event log is the server's.
 */
async function openTestStores(dir: string): Promise<Stores> {
  const config = parseStoreConfig(process.env);
  if (config.mode === 'embedded') return openSqliteStores(dir);
  const database = `platform_test_${basename(dir).replace(/[^A-Za-z0-9]/g, '_')}`;
  const mongoUrl = config.mongoUrl.replace(/^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?/, `$1/${database}`);
  // Loaded only here, as src/stores/index.ts does: the two clients cost every platform test file 0.2 s to load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see above
  const production = require('../../src/stores/production') as typeof import('../../src/stores/production');
  return production.openProductionStores({ ...config, mongoUrl }, pino({ level: 'silent' }));
}

/** A real service on a random loopback port, on a fresh data directory. */
export async function startPlatform(
  overrides: Partial<Settings> = {},
  dataDir?: string,
  /** Lets a test watch the stores, e.g. count their calls. */
  wrap: (stores: Stores) => Stores = (stores) => stores,
): Promise<TestPlatform> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'platform-test-'));
  // Every test client comes from 127.0.0.1: the per-address limits apply only where a test sets them;
  // so does the per-member write limit, as a test's member writes faster than a person does.
  const unlimited = {
    REGISTRATION_LIMIT: 100_000,
    ANONYMOUS_SESSION_LIMIT: 1_000_000,
    LOGIN_ADDRESS_MAX_FAILURES: 100_000,
    MEMBER_WRITE_LIMIT: 100_000,
    OPEN_API_CREDENTIAL_FAILURE_LIMIT: 1_000_000,
  };
  // No metrics listener unless a test asks for one (METRICS_PORT 0: any free port): the default port is fixed.
  // No audit checkpoint appended in the background unless a test asks for them: they would count among its events.
  const quiet = {
    METRICS_PORT: 'off' as const,
    AUDIT_CHECKPOINT_SECONDS: 86_400,
    AUDIT_SIGNING_KEY_FILE: join(dir, 'audit-signing-key.pem'),
  };
  const settings = {
    ...parseSettings({}),
    LOG_LEVEL: 'info' as const,
    ADMIN_PASSWORD,
    ...unlimited,
    ...quiet,
    ...overrides,
  };
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const announcements: string[] = [];
  const stores = wrap(await openTestStores(dir));
  const platform = await createPlatform({
    settings,
    log: createLogger(settings.LOG_LEVEL, sink),
    stores,
    announce: (message) => announcements.push(message),
  }).catch(async (err: unknown) => {
    // A platform that refused to start (a test of that refusal) leaves nothing open behind it.
    await stores.close();
    throw err;
  });
  const contractProblems: string[] = [];
  const answered: Checked[] = [];
  const checker = new ContractChecker(platform.endpoints);
  platform.app.middleware.unshift(checker.watch(contractProblems, answered));
  const server = createHttpServer(checker.watchLane(platform.lane, contractProblems, answered)(platform.listener()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    platform,
    server,
    dataDir: dir,
    logLines,
    announcements,
    client: () => request.agent(url),
    allEvents: () => platform.stores.events.readAll(START, 1_000_000),
    contractProblems,
    answered,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await platform.close();
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
      if (contractProblems.length > 0) {
        throw new Error(`answers outside the OpenAPI contract:\n${[...new Set(contractProblems)].join('\n')}`);
      }
    },
  };
}

/** GET /developer/session: the CSRF token of this client's session. */
export async function csrfOf(client: request.Agent): Promise<string> {
  const res = await client.get('/api/v1/developer/session').expect(200);
  return res.body.data.csrf_token as string;
}

/** The password of the super administrator `admin` that every test platform seeds. */
export const ADMIN_PASSWORD = 'admin-secret';

let counter = 0;
export function uniqueUsername(prefix = 'dev'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}`;
}

/** Registers a new member on this client; afterwards the client is logged in with a new token. */
export async function registerMember(client: request.Agent, fields: Record<string, unknown> = {}) {
  const token = await csrfOf(client);
  const body = { username: uniqueUsername(), password: 'secret1', email: 'dev@example.com', ...fields };
  const res = await client.post('/api/v1/developer/register').set('X-CSRF-Token', token).send(body).expect(200);
  return { ...body, id: res.body.data.id as number, token: await csrfOf(client) };
}

/** Logs a registered member in on this client; afterwards it holds a new session id and token. */
export async function logIn(client: request.Agent, member: { username: string; password: string }): Promise<void> {
  const token = await csrfOf(client);
  await client
    .post('/api/v1/developer/login')
    .set('X-CSRF-Token', token)
    .send({ username: member.username, password: member.password })
    .expect(200);
}

/** Logs the seeded super administrator (or another) in on this client; answers the new CSRF token. */
export async function logInAdmin(
  client: request.Agent,
  admin: { username: string; password: string } = { username: 'admin', password: ADMIN_PASSWORD },
): Promise<string> {
  const res = await client.get('/api/v1/admin/session').expect(200);
  await client.post('/api/v1/admin/login').set('X-CSRF-Token', res.body.data.csrf_token).send(admin).expect(200);
  return csrfOf(client);
}

export type Answer = {
  status: number;
  body: { code: number; message: string; data: Record<string, unknown> & { issues?: { path: string }[] } };
  headers: Record<string, unknown>;
};

/**
 * Events no request appends: the expiry watch's, as time passes. Under load one may land while a
 * refusal is checked, from a key an earlier test let expire or approved to expire within days.
 */
const byTheClock = ({ metadata: { actor } }: RecordedEvent): boolean =>
  actor.kind === EXPIRY_WATCH_ACTOR.kind && actor.id === EXPIRY_WATCH_ACTOR.id;

/** Asserts a refusal: the status, the stable reason, the envelope, and not one event appended by it. */
export async function expectRefusal(
  t: TestPlatform,
  send: () => PromiseLike<Answer>,
  status: number,
  error: string,
): Promise<Answer> {
  const appendedByRequests = async () => (await t.allEvents()).filter((e) => !byTheClock(e)).length;
  const before = await appendedByRequests();
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ code: status, message: expect.any(String), data: expect.objectContaining({ error }) });
  expect(res.body.message.length).toBeGreaterThan(10);
  expect(await appendedByRequests()).toBe(before);
  return res;
}

/**
 * A wrong password for a known username, and that username's password under an unknown one, both refused by the
 * login at `path` with 401 invalid_credentials and the same body: a refusal does not tell which usernames exist.
 */
export async function expectLoginRefusedAlike(
  t: TestPlatform,
  client: request.Agent,
  path: string,
  known: { username: string; password: string },
): Promise<void> {
  const token = await csrfOf(client);
  const logIn = (body: { username: string; password: string }) => () =>
    client.post(path).set('X-CSRF-Token', token).send(body);
  const wrong = await expectRefusal(
    t,
    logIn({ username: known.username, password: `${known.password}-wrong` }),
    401,
    'invalid_credentials',
  );
  const unknown = await expectRefusal(
    t,
    logIn({ username: uniqueUsername('ghost'), password: known.password }),
    401,
    'invalid_credentials',
  );
  expect(unknown.body).toEqual(wrong.body);
}

/** The PHPSESSID Set-Cookie header of a response that sets a session (not one that clears it). */
export function sessionCookie(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith('PHPSESSID=') && !c.startsWith('PHPSESSID=;'));
}
