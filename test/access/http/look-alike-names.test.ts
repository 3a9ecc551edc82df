import { setTimeout as sleep } from 'node:timers/promises';
import request from 'supertest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventStore, Stores } from '../../../src/stores/ports';
import { openSqliteStores } from '../../../src/stores/sqlite';
import { appendDecided, streamEnd } from '../../../src/shared/commands/context';
import { argon2Hasher } from '../../../src/member';
import {
  ADMIN_PASSWORD,
  csrfOf,
  expectRefusal,
  registerMember,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';
import { adminBrowser, AdminBrowser } from './access-clients';

/** Names that read alike, in every way the keys fold: rn and m, a Cyrillic е, case, 0 and O. */
const lookAlikes = (base: string) => [
  `Dem${base}`,
  `Dern${base}`,
  `D\u0435m${base}`,
  `DEM${base.toUpperCase()}`,
  `dem${base}`,
  `Dem${base.replace(/o/g, '0')}`,
];

/**
 * The embedded store answers a read at once, within one turn of the event loop, so requests handled
 * in one process hardly interleave; a networked store (KurrentDB) answers later. Reads of the
 * stores wrapped here wait a few milliseconds first, so that the requests really overlap.
 */
function slowReads(stores: Stores): Stores {
  const events = new Proxy(stores.events, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key !== 'readStream') return value.bind(target);
      return async (...args: Parameters<EventStore['readStream']>) => {
        await sleep(3);
        return target.readStream(...args);
      };
    },
  });
  return { ...stores, events };
}

describe('names unique as they read (docs/administrators.md, "Names")', () => {
  let t: TestPlatform;
  let root: AdminBrowser;
  beforeAll(async () => {
    t = await startPlatform({}, undefined, slowReads);
    root = await adminBrowser(t);
  });
  afterAll(() => t.close());

  it('refuses an administrator whose username reads like an existing one, naming it', async () => {
    const refused = await expectRefusal(
      t,
      () => root.post('/administrators', { username: 'adrnin', role_group_id: 1 }),
      409,
      'admin_username_taken',
    );
    expect(refused.body.message).toContain('"admin"');
  });

  it('defines one of many look-alike role groups asked for at the same instant of two API instances', async () => {
    const second = await startPlatform({ PROJECTIONS: 'off', READ_WAIT_MS: 3000 }, t.dataDir, slowReads);
    try {
      const other = await adminBrowser(second);
      const names = lookAlikes('o-stage');
      const answers = await Promise.all(
        names.map((name, i) => (i % 2 === 0 ? root : other).post('/role-groups', { name, permissions: [] })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const refused of answers.filter((a) => a.status === 409))
        expect(refused.body.data.error).toBe('role_group_name_taken');
      const listed = (await root.get('/role-groups').expect(200)).body.data.list as { name: string }[];
      expect(listed.filter((g) => names.includes(g.name))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('creates one of many look-alike administrators asked for at the same instant', async () => {
    const base = uniqueUsername('o').slice(0, 20);
    const answers = await Promise.all(
      lookAlikes(base)
        .filter((name) => /^[A-Za-z][A-Za-z0-9_.-]*$/.test(name))
        .map((username) => root.post('/administrators', { username, role_group_id: 1 })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.data.error === 'admin_username_taken')).toHaveLength(
      answers.length - 1,
    );
  });

  it('registers one of many look-alike members asked for at the same instant, naming none to the others', async () => {
    const base = uniqueUsername('o').slice(0, 20);
    const names = lookAlikes(base).filter((name) => /^[A-Za-z][A-Za-z0-9_.-]*$/.test(name));
    const browsers = await Promise.all(
      names.map(async () => {
        const client = t.client();
        return { client, token: await csrfOf(client) };
      }),
    );
    const answers = await Promise.all(
      names.map((username, i) =>
        browsers[i]!.client.post('/api/v1/developer/register')
          .set('X-CSRF-Token', browsers[i]!.token)
          .send({ username, password: 'secret1', email: 'dev@example.com' }),
      ),
    );
    const registered = answers.filter((a) => a.status === 200);
    expect(registered).toHaveLength(1);
    const winner = registered[0]!.body.data.username as string;
    const refused = answers.filter((a) => a.status === 422);
    expect(refused).toHaveLength(names.length - 1);
    for (const answer of refused) {
      expect(answer.body.data.error).toBe('username_taken');
      expect(answer.body.data.issues).toEqual([expect.objectContaining({ path: 'username' })]);
      if (answer.body.message.includes('reads like')) expect(answer.body.message).not.toContain(`"${winner}"`);
    }
  });

  it('refuses a member username that reads like a registered one, after it is registered', async () => {
    const base = uniqueUsername('m');
    await registerMember(t.client(), { username: base });
    const other: request.Agent = t.client();
    const token = await csrfOf(other);
    const refused = await expectRefusal(
      t,
      () =>
        other
          .post('/api/v1/developer/register')
          .set('X-CSRF-Token', token)
          .send({ username: base.replace('m', 'rn'), password: 'secret1', email: 'dev@example.com' }),
      422,
      'username_taken',
    );
    expect(refused.body.message).toContain('reads like one already registered');
    expect(refused.body.message).not.toContain(`"${base}"`);
  });
});

describe('a store seeded before names were claimed', () => {
  it("claims the seeded administrator's name at the next start, so adrnin is refused beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-legacy-'));
    const stores = openSqliteStores(dir);
    const ctx = { actor: { kind: 'system' as const, id: 'seed' }, requestId: 'legacy-seed', now: new Date() };
    // What the seeding of an earlier version left: the super administrator and the marker, no claim.
    const profile = {
      admin_id: 1,
      username: 'admin',
      is_super: true,
      role_id: null,
      password_hash: await argon2Hasher().hash(ADMIN_PASSWORD),
      email: null,
    };
    await appendDecided(
      stores.events,
      'admin-admin',
      [{ type: 'AdminCreated', data: profile }],
      ctx,
      streamEnd(undefined),
    );
    await appendDecided(
      stores.events,
      'platform-seed',
      [{ type: 'PlatformSeeded', data: {} }],
      ctx,
      streamEnd(undefined),
    );
    await stores.close();
    const t = await startPlatform({}, dir);
    try {
      const root = await adminBrowser(t);
      const group = await root.post('/role-groups', { name: 'Legacy', permissions: [] }).expect(200);
      const refused = await expectRefusal(
        t,
        () => root.post('/administrators', { username: 'adrnin', role_group_id: group.body.data.id }),
        409,
        'admin_username_taken',
      );
      expect(refused.body.message).toContain('"admin"');
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
