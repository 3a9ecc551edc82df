import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { approvedMember } from '../../support/credentials';
import { StoreUnavailable, type Stores } from '../../../src/stores/ports';
import { logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

/**
 * Idempotency keys on writes (docs/rules.md, "Idempotency keys"), through the service on the
 * embedded stores. The only stand-in is the event store's answer to an append: held, to have a
 * request in flight while another arrives, or lost after the append took effect, as a timeout
 * or a dropped connection loses it.
 */
let t: TestPlatform;
let hold: Promise<void> | null = null;
let loseNextAnswer = false;

function watchedAppends(stores: Stores): Stores {
  const events = stores.events;
  return {
    ...stores,
    events: {
      ...events,
      append: async (stream, list, expected) => {
        if (hold && stream.startsWith('webhook-')) await hold;
        const result = await events.append(stream, list, expected);
        if (loseNextAnswer && stream.startsWith('webhook-')) {
          loseNextAnswer = false;
          throw new StoreUnavailable('append');
        }
        return result;
      },
      readStream: events.readStream.bind(events),
      readAll: events.readAll.bind(events),
      headPosition: events.headPosition.bind(events),
      subscribeAll: events.subscribeAll.bind(events),
      close: events.close.bind(events),
    },
  };
}

let admin: request.Agent;
let token: string;
beforeAll(async () => {
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true }, undefined, watchedAppends);
  admin = t.client();
  token = await logInAdmin(admin);
});
afterAll(() => t.close());

let keys = 0;
const newKey = () => `key-${Date.now()}-${++keys}`;
const hook = (path: string) => ({ url: `http://127.0.0.1:9/${path}`, events: ['credential.approved'] });
const register = (key: string, body: object) =>
  admin.post('/api/v1/webhooks').set('X-CSRF-Token', token).set('Idempotency-Key', key).send(body);
const change = (id: string, key: string, body: object) =>
  admin.put(`/api/v1/webhooks/${id}`).set('X-CSRF-Token', token).set('Idempotency-Key', key).send(body);
const webhookEvents = async () => (await t.allEvents()).filter((e) => e.stream.startsWith('webhook-'));
const webhooksAt = async (url: string) =>
  ((await admin.get('/api/v1/webhooks').expect(200)).body.data.list as { url: string }[]).filter((h) => h.url === url);

async function registered(path: string): Promise<string> {
  const res = await admin.post('/api/v1/webhooks').set('X-CSRF-Token', token).send(hook(path)).expect(200);
  return res.body.data.id as string;
}

describe('Idempotency-Key on writes', () => {
  it('answers a repeat with the same key and body the first answer again, marked replayed, and writes nothing more', async () => {
    const id = await registered('replayed');
    const key = newKey();
    const first = await change(id, key, hook('replayed-2')).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = (await webhookEvents()).length;
    const again = await change(id, key, hook('replayed-2')).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await webhookEvents()).length).toBe(before);
  });

  it('keeps a refusal too (a 5xx is not kept: the retries after a 503 below run again)', async () => {
    const key = newKey();
    const refused = await change('00000000-0000-4000-8000-000000000000', key, hook('missing')).expect(404);
    const again = await change('00000000-0000-4000-8000-000000000000', key, hook('missing')).expect(404);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(refused.body);
  });

  it('refuses the same key with another body 422 idempotency_key_reused, and a key that is not 1 to 255 visible ASCII 400', async () => {
    const id = await registered('reused');
    const key = newKey();
    await change(id, key, hook('reused-a')).expect(200);
    const reused = await change(id, key, hook('reused-b')).expect(422);
    expect(reused.body.data.error).toBe('idempotency_key_reused');
    for (const bad of ['x'.repeat(256), 'with space', 'é']) {
      const res = await change(id, bad, hook('reused-c'));
      expect([res.status, res.body.data.error]).toEqual([400, 'idempotency_key_invalid']);
    }
  });

  it('refuses a request whose key is still in flight 409 idempotency_key_in_use, then answers the first answer', async () => {
    const id = await registered('in-flight');
    const key = newKey();
    let release = () => {};
    hold = new Promise((resolve) => (release = resolve));
    try {
      const first = change(id, key, hook('in-flight-2')).then((res) => res);
      // Both are on the wire at once; the second arrives while the first waits on its append.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const concurrent = await Promise.all([
        change(id, key, hook('in-flight-2')),
        change(id, key, hook('in-flight-2')),
      ]);
      expect(concurrent.map((res) => [res.status, res.body.data.error, res.headers['retry-after']])).toEqual([
        [409, 'idempotency_key_in_use', '1'],
        [409, 'idempotency_key_in_use', '1'],
      ]);
      release();
      expect((await first).status).toBe(200);
    } finally {
      release();
      hold = null;
    }
    const after = await change(id, key, hook('in-flight-2')).expect(200);
    expect(after.headers['idempotent-replayed']).toBe('true');
  });

  it('a POST retried with its key after a 503 whose append took effect creates exactly one webhook', async () => {
    const key = newKey();
    const body = hook('once');
    loseNextAnswer = true;
    const lost = await register(key, body);
    expect([lost.status, lost.body.data.error]).toEqual([503, 'store_unavailable']);
    // The secret of the first request was never seen and is never kept: the retry is told it was issued.
    const retried = await register(key, body);
    expect([retried.status, retried.body.data.error]).toEqual([409, 'secret_already_issued']);
    expect(await webhooksAt(body.url)).toHaveLength(1);
  });

  it('a PUT retried with its key after a 503 whose append took effect answers as the first would have, and appends once', async () => {
    const id = await registered('put-once');
    const key = newKey();
    const before = (await webhookEvents()).length;
    loseNextAnswer = true;
    await change(id, key, hook('put-once-2')).expect(503);
    const retried = await change(id, key, hook('put-once-2')).expect(200);
    expect(retried.body.data).toMatchObject({ id, url: hook('put-once-2').url });
    expect((await webhookEvents()).length).toBe(before + 1);
  });

  it('never keeps an answer that carried a secret: a repeat is told it was issued, 409 secret_already_issued', async () => {
    const key = newKey();
    const first = await register(key, hook('secret')).expect(200);
    expect(first.body.data.secret).toEqual(expect.stringMatching(/^whsec_/));
    const again = await register(key, hook('secret'));
    expect([again.status, again.body.data.error]).toEqual([409, 'secret_already_issued']);
    expect(JSON.stringify(again.body)).not.toContain(first.body.data.secret as string);
    expect(await webhooksAt(hook('secret').url)).toHaveLength(1);
  });

  it('keeps keys per caller, not per session: the same administrator in another session gets the kept answer', async () => {
    const key = newKey();
    const id = await registered('callers');
    await change(id, key, hook('callers-2')).expect(200);
    const other = t.client();
    const otherToken = await logInAdmin(other);
    // The same administrator in another session is the same caller: it gets the kept answer.
    const sameCaller = await other
      .put(`/api/v1/webhooks/${id}`)
      .set('X-CSRF-Token', otherToken)
      .set('Idempotency-Key', key)
      .send(hook('callers-2'))
      .expect(200);
    expect(sameCaller.headers['idempotent-replayed']).toBe('true');
  });

  it('never stores the clear API key of a claim: the record keeps only that it was given, and a repeat is 409 secret_already_issued', async () => {
    const { developer, member } = await approvedMember(t);
    const key = newKey();
    const claim = () =>
      developer.post('/api/v1/developer/claim').set('X-CSRF-Token', member.token).set('Idempotency-Key', key).send({});
    const claimed = await claim().expect(200);
    const apikey = claimed.body.data.apikey as string;
    const again = await claim();
    expect([again.status, again.body.data.error]).toEqual([409, 'secret_already_issued']);
    expect(JSON.stringify(again.body)).not.toContain(apikey);
    const db = new BetterSqlite3(join(t.dataDir, 'platform.db'), { readonly: true });
    try {
      const kept = db
        .prepare<[], { status: number; body: string | null }>(
          'SELECT status, body FROM idempotency_keys WHERE status = 200 AND body IS NULL',
        )
        .all();
      expect(kept.length).toBeGreaterThan(0);
      const everything = JSON.stringify(db.prepare('SELECT * FROM idempotency_keys').all());
      expect(everything).not.toContain(apikey);
    } finally {
      db.close();
    }
  });
});
