import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { START } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';
import { csrfOf } from '../support/platform';
import { seededRandom } from '../unit/stores/seeded-random';
import { AddonOperator } from './support/addon-operator';
import { Administrator } from './support/administrator';
import { DeveloperClient, KnownMember } from './support/developer-client';
import { duplicates, repeated } from './support/ledger';
import { caughtUp, expectReadModelsEqualRebuild } from './support/read-models';
import { freePort } from '../support/service-process';
import { kill, Service, startService } from './support/service';
import { API, Traffic } from './support/traffic';

/**
 * Issue 7, reliability: the service, in a process of its own, serves a stream of commands from
 * concurrent clients and is killed with SIGKILL at random moments, some in the middle of a burst
 * of registrations, then restarted on the same data directory. Every write it acknowledged must be
 * in the log, once; after it catches up, its read models must equal a rebuild from the log, and
 * it must answer what it acknowledged. RELIABILITY_SEED=<n> replays the kill times and the
 * clients' choices (the interleaving of requests still varies from run to run).
 */
const SEED = Number(process.env.RELIABILITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const KILLS = 6;
const DEVELOPERS = 6;
/** Registrations started together just before every second kill. */
const BURST = 16;
const UPTIME_MS = { min: 1500, spread: 2500 };
const CATCH_UP_MS = 30_000;
/** Each client's administrator logs in at once after a restart: simultaneous logins count as attempts until they succeed. */
// Every simulated browser comes from 127.0.0.1: the per-address limits would stop the traffic, not test it.
const LIMITS = {
  LOGIN_MAX_FAILURES: '1000',
  LOGIN_ADDRESS_MAX_FAILURES: '100000',
  REGISTRATION_LIMIT: '100000',
  ANONYMOUS_SESSION_LIMIT: '1000000',
  PASSWORD_CHECKS_IN_FLIGHT: '1000',
};

/** Runs a client's steps until stopped, pausing briefly while the service does not answer. */
async function drive(client: { step(): Promise<boolean> }, running: () => boolean): Promise<void> {
  while (running()) if (!(await client.step())) await sleep(20);
}

/** What the restarted service answers for each member whose registration it acknowledged. */
async function servedState(origin: string, members: KnownMember[]): Promise<string[]> {
  const problems: string[] = [];
  const check = async (member: KnownMember) => {
    const browser = request.agent(origin);
    const token = await csrfOf(browser);
    const login = await browser
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', token)
      .send({ username: member.username, password: member.password });
    if (login.status !== 200 || login.body.data.id !== member.id) {
      problems.push(
        `member ${member.id} (${member.username}) cannot log in: ${login.status} ${JSON.stringify(login.body)}`,
      );
      return;
    }
    const dashboard = await browser.get(`${API}/developer/dashboard`);
    if (
      dashboard.status !== 200 ||
      dashboard.body.data.member.id !== member.id ||
      dashboard.body.data.member.username !== member.username
    ) {
      problems.push(`member ${member.id}: dashboard answers ${dashboard.status} ${JSON.stringify(dashboard.body)}`);
    }
    if (member.key) {
      const call = await request(origin)
        .get(`${API}/open/addons`)
        .set('X-API-ID', member.key.apiid)
        .set('X-API-Key', member.key.apikey);
      const expected = member.addonsRead ? [200] : [200, 403];
      if (!expected.includes(call.status))
        problems.push(
          `member ${member.id}: its last acknowledged key answers ${call.status}, expected ${expected.join(' or ')}`,
        );
    }
  };
  // A few at a time: each login verifies an argon2 hash.
  const queue = [...members];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let member = queue.shift(); member; member = queue.shift()) await check(member);
    }),
  );
  return problems;
}

describe('the service killed with SIGKILL while it serves a stream of commands', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reliability-crash-'));
  let service: Service | undefined;
  afterAll(async () => {
    if (service) await kill(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write, once, and read models equal to a rebuild (RELIABILITY_SEED=${SEED})`, async () => {
    const random = seededRandom(SEED);
    const port = await freePort();
    service = await startService({ dataDir, port, env: LIMITS });
    const origin = `http://127.0.0.1:${port}`;
    const traffic = new Traffic(origin, 'crash');
    const known = new Map<number, KnownMember>();
    const developer = (name: string, seed: number) =>
      new DeveloperClient(traffic, new Administrator(traffic), seededRandom(seed), known, name);

    let running = true;
    const clients = [
      ...Array.from({ length: DEVELOPERS }, (_, i) => developer(`dev${i}`, SEED + i + 1)),
      new AddonOperator(new Administrator(traffic), seededRandom(SEED - 1)),
    ];
    const loops = clients.map((client) => drive(client, () => running));
    const bursts: Promise<unknown>[] = [];
    let killedMidBurst = 0;
    try {
      for (let n = 1; n <= KILLS; n++) {
        await sleep(UPTIME_MS.min + random() * UPTIME_MS.spread);
        if (n % 2 === 0) {
          // A burst's registrations each take an argon2 hash (tens of ms): the kill comes while they run.
          bursts.push(
            ...Array.from({ length: BURST }, (_, i) => developer(`burst${n}n${i}`, SEED * 31 + n * BURST + i).step()),
          );
          await sleep(5 + random() * 60);
          killedMidBurst += 1;
        }
        await kill(service);
        service = await startService({ dataDir, port, env: LIMITS });
      }
      await sleep(UPTIME_MS.min);
    } finally {
      running = false;
      await Promise.all([...loops, ...bursts]);
    }

    const stores = openSqliteStores(dataDir);
    try {
      const head = await caughtUp(stores, CATCH_UP_MS);
      const log = await stores.events.readAll(START, Number.MAX_SAFE_INTEGER);
      const { ledger } = traffic;
      const counts = ledger.counts();
      process.stdout.write(
        `crash: RELIABILITY_SEED=${SEED} kills=${KILLS} (${killedMidBurst} mid-burst) acknowledged=${counts.acknowledged} refused=${counts.refused} ` +
          `unknown=${counts.unknown} (landed anyway: ${ledger.unknownThatLanded(log)}) events=${log.length} members=${known.size}\n`,
      );

      expect(traffic.problems).toEqual([]);
      expect(ledger.missing(log)).toEqual([]);
      expect(ledger.refusedThatLanded(log)).toEqual([]);
      expect(duplicates(log)).toEqual([]);
      for (const [type, field] of [
        ['MemberRegistered', 'member_id'],
        ['MemberRegistered', 'username'],
        ['MemberIdAllocated', 'member_id'],
        ['CredentialClaimed', 'apiid'],
      ] as const) {
        expect([type, field, repeated(log, type, field)]).toEqual([type, field, []]);
      }
      await expectReadModelsEqualRebuild(stores, head);
      expect(await servedState(origin, [...known.values()])).toEqual([]);

      // The run exercised what it claims to: writes of every kind acknowledged, and writes cut by the kills.
      expect(counts.acknowledged).toBeGreaterThan(300);
      expect(counts.unknown).toBeGreaterThanOrEqual(KILLS);
      const types = new Set(log.map((e) => e.type));
      for (const type of [
        'MemberRegistered',
        'CredentialApproved',
        'CredentialRejected',
        'CredentialClaimed',
        'ScopeRequested',
        'ScopeApproved',
        'KeyRotated',
        'AddonInstalled',
        'PageRolesSet',
      ]) {
        expect([type, types.has(type)]).toEqual([type, true]);
      }
    } finally {
      await stores.close();
    }
  }, 180_000);
});
