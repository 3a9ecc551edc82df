import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import pino from 'pino';
import request from 'supertest';
import { AppState } from '../../../src/shared/http/context';
import { HttpError } from '../../../src/shared/http/envelope';
import { idempotentWrites } from '../../../src/shared/http/idempotency';
import { openSqliteStores } from '../../../src/stores/sqlite';
import type { Stores } from '../../../src/stores/ports';

/**
 * Answers that ask the client to send the request again are not kept under its idempotency key:
 * the middleware on the embedded store, in front of a handler that refuses as the service's do.
 */
const dir = mkdtempSync(join(tmpdir(), 'platform-idempotency-'));
let stores: Stores;
beforeAll(() => {
  stores = openSqliteStores(dir);
});
afterAll(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A write that answers each refusal once, in order, then 200 with how many times it ran. */
function service(refusals: HttpError[]) {
  let ran = 0;
  const app = new Koa<AppState>();
  app.use(async (ctx, next) => {
    ctx.state.requestId = `request-${Math.random()}`;
    ctx.state.log = pino({ level: 'silent' });
    await next();
  });
  app.use(idempotentWrites(stores.documents.idempotency, 'partner', false));
  app.use((ctx) => {
    ran += 1;
    const refusal = refusals.shift();
    if (refusal) throw refusal;
    ctx.body = { code: 0, message: 'ok', data: { ran } };
  });
  return request(app.callback());
}

it.each([
  [
    '429 with Retry-After',
    new HttpError(429, 'too_many_reset_requests', 'slow down', undefined, { 'Retry-After': '60' }),
  ],
  ['409 concurrent_modification', new HttpError(409, 'concurrent_modification', 'retry')],
  ['503 with Retry-After', new HttpError(503, 'read_model_lagging', 'retry', undefined, { 'Retry-After': '1' })],
])('does not keep %s: the retry under the same key runs again', async (_what, refusal) => {
  const app = service([refusal]);
  const send = () =>
    app.post('/write').set('X-API-ID', 'partner-1').set('Idempotency-Key', `key-${refusal.error}`).send({ a: 1 });
  expect((await send()).status).toBe(refusal.status);
  const retried = await send().expect(200);
  expect(retried.body.data).toEqual({ ran: 2 });
  expect(retried.headers['idempotent-replayed']).toBeUndefined();
});

it('keeps a refusal that no retry changes: 422 is answered again, replayed', async () => {
  const app = service([new HttpError(422, 'validation_failed', 'bad')]);
  const send = () => app.post('/write').set('X-API-ID', 'partner-1').set('Idempotency-Key', 'key-422').send({ a: 1 });
  expect((await send()).status).toBe(422);
  const again = await send().expect(422);
  expect(again.headers['idempotent-replayed']).toBe('true');
});
