import { createServer, Server } from 'node:http';
import request from 'supertest';
import { activePartner, mistypedKey, Partner } from '../../support/credentials';
import { startPlatform, TestPlatform } from '../../support/platform';

/**
 * The partner lane answers GET /open/* ahead of koa; koa still serves the same endpoints behind
 * the same gate for what the lane leaves to it. Each call below is made twice, once through the
 * service as it runs (the lane) and once through koa alone, and both answers must be the same to
 * the partner: status, body, and every header field with its value, in the same order, but those
 * that differ per call (the request id, the remaining allowance and its reset).
 */
const RATE_LIMIT = 40;
let t: TestPlatform;
let koaOnly: Server;
let both: Partner;
let addonsOnly: Partner;
beforeAll(async () => {
  t = await startPlatform({ OPEN_API_RATE_LIMIT: RATE_LIMIT, OPEN_API_RATE_WINDOW_SECONDS: 3600 });
  koaOnly = createServer(t.platform.app.callback());
  both = await activePartner(t, ['addons.read', 'member-groups.read']);
  addonsOnly = await activePartner(t);
});
afterAll(() => t.close());

const PER_CALL = new Set(['x-request-id', 'ratelimit', 'ratelimit-remaining', 'ratelimit-reset', 'date']);

type Call = (server: Server) => request.Test;

async function answerOf(call: Call, server: Server) {
  const res = await call(server);
  // In the order they came: Node's parser keeps it.
  const names = Object.keys(res.headers);
  const fields = names.filter((name) => !PER_CALL.has(name)).map((name) => [name, res.headers[name]]);
  return { status: res.status, body: res.body as unknown, names, fields };
}

/** The same call through the lane and through koa alone; the lane's answer. */
async function sameAnswer(call: Call) {
  const lane = await answerOf(call, t.server);
  const koa = await answerOf(call, koaOnly);
  expect(lane).toEqual(koa);
  return lane;
}

const get =
  (path: string, headers: Record<string, string> = {}) =>
  (server: Server) =>
    request(server).get(`/api/v1${path}`).set(headers);
const keyOf = (p: Partner) => ({ 'X-API-ID': p.apiid, 'X-API-Key': p.apikey });

describe('the partner lane answers as koa does', () => {
  it('an accepted call, with the request id and rate-limit fields', async () => {
    const answer = await sameAnswer(get('/open/addons', keyOf(both)));
    expect(answer.status).toBe(200);
    expect(answer.names).toEqual(
      expect.arrayContaining([
        'x-request-id',
        'ratelimit-remaining',
        'ratelimit-reset',
        'cache-control',
        'content-type',
      ]),
    );
    await sameAnswer(get('/open/member-groups', keyOf(both)));
  });

  it('the refusals of the key check and the scope check', async () => {
    expect(
      (await sameAnswer(get('/open/addons', { ...keyOf(both), 'X-API-Key': mistypedKey(both.apikey) }))).status,
    ).toBe(401);
    expect((await sameAnswer(get('/open/addons', { 'X-API-ID': both.apiid }))).status).toBe(401);
    expect(
      (await sameAnswer(get('/open/addons', { ...keyOf(both), 'X-API-ID': 'ak_aaaaaaaaaaaaaaaaaaaa' }))).status,
    ).toBe(401);
    const forbidden = await sameAnswer(get('/open/member-groups', keyOf(addonsOnly)));
    expect(forbidden.body).toMatchObject({ code: 403, data: { error: 'scope_not_approved' } });
  });

  it('the 429 once the API id is over its rate limit, with Retry-After', async () => {
    for (let i = 0; i < RATE_LIMIT; i++) await request(t.server).get('/api/v1/open/addons').set(keyOf(addonsOnly));
    const refused = await sameAnswer(get('/open/addons', keyOf(addonsOnly)));
    expect(refused.body).toMatchObject({ code: 429, data: { error: 'rate_limited' } });
    expect(refused.names).toContain('retry-after');
  });

  it('logs one line per call, naming the call and never the key', async () => {
    const before = t.logLines.length;
    const res = await request(t.server)
      .get('/api/v1/open/addons')
      .set(keyOf(both))
      .set('X-Request-Id', 'partner-trace-1')
      .expect(200);
    const lines = t.logLines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        path: '/api/v1/open/addons',
        status: 200,
        request_id: res.headers['x-request-id'],
        client_request_id: 'partner-trace-1',
        duration_ms: expect.any(Number),
      }),
    ]);
    expect(t.logLines.slice(before).join('\n')).not.toContain(both.apikey);
  });
});

describe('what the lane leaves to koa', () => {
  it('a query string: judged by the router, after the same key check', async () => {
    const wrongKey = await request(t.server)
      .get('/api/v1/open/addons?page=1')
      .set({ ...keyOf(both), 'X-API-Key': mistypedKey(both.apikey) });
    expect(wrongKey.body).toMatchObject({ code: 401, data: { error: 'api_credentials_invalid' } });
    const unknown = await request(t.server).get('/api/v1/open/addons?page=1').set(keyOf(both));
    expect(unknown.body).toMatchObject({ code: 422, data: { error: 'unknown_query_parameter' } });
  });

  it('HEAD: the GET without its body, behind the same gate', async () => {
    const head = await request(t.server).head('/api/v1/open/addons').set(keyOf(both)).expect(200);
    expect(head.headers['ratelimit-limit']).toBe(String(RATE_LIMIT));
    await request(t.server).head('/api/v1/open/addons').expect(401);
  });

  it('another method: 405 with the methods the path allows', async () => {
    const res = await request(t.server).post('/api/v1/open/addons').set(keyOf(both)).send({}).expect(405);
    expect(res.body).toMatchObject({ data: { error: 'method_not_allowed' } });
    expect(res.headers.allow).toBe('HEAD, GET');
  });

  it('an open path no endpoint serves: 404 in the envelope', async () => {
    const res = await request(t.server).get('/api/v1/open/unknown').set(keyOf(both)).expect(404);
    expect(res.body).toMatchObject({ code: 404, data: { error: 'not_found' } });
  });
});
