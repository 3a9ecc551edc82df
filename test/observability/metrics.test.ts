import request from 'supertest';
import { activePartner, mistypedKey, openCall, Partner } from '../support/credentials';
import { registerMember, startPlatform, TestPlatform } from '../support/platform';
import { scrape, valueOf } from '../support/metrics';

const API = '/api/v1';
const REQUESTS = 'http_server_request_duration_seconds_count';
const OPEN_API = 'platform_open_api_requests_total';

describe("operators' metrics", () => {
  let t: TestPlatform;
  let partner: Partner;

  beforeAll(async () => {
    t = await startPlatform({ METRICS_PORT: 0 });
    partner = await activePartner(t, ['addons.read']);
  });
  afterAll(() => t.close());

  it('are served at GET /metrics on their own port, in the Prometheus text format, and never on the API port', async () => {
    const { text, contentType } = await scrape(t);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^# HELP http_server_request_duration_seconds /m);
    const onApi = await request(t.server).get('/metrics');
    expect(onApi.status).toBe(404);
    expect(onApi.text).not.toContain('# HELP');
    const other = await fetch(`http://127.0.0.1:${t.platform.metrics.address()!.port}/other`);
    expect(other.status).toBe(404);
  });

  it('include the process and Node.js metrics', async () => {
    const { samples } = await scrape(t);
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name.startsWith('nodejs_eventloop_lag_'))).toBe(true);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('time requests by method, route template and status', async () => {
    await request(t.server).get(`${API}/credentials/123/history`).expect(401);
    await request(t.server).get(`${API}/credentials/456/history`).expect(401);
    const { samples } = await scrape(t);
    const route = '/api/v1/credentials/{member_id}/history';
    expect(
      valueOf(samples, REQUESTS, { http_request_method: 'GET', http_route: route, http_response_status_code: '401' }),
    ).toBe(2);
    expect(samples.some((s) => /123|456/.test(JSON.stringify(s.labels)))).toBe(false);
    // Sessions, logins, approvals: every request the router matched is under its template.
    expect(
      valueOf(samples, REQUESTS, {
        http_request_method: 'POST',
        http_route: '/api/v1/credentials/{member_id}/approve',
        http_response_status_code: '200',
      }),
    ).toBe(1);
  });

  it('add no series for paths no route matches, however many', async () => {
    const series = async () =>
      (await scrape(t)).samples.filter((s) => s.name.startsWith('http_server_request_duration_seconds')).length;
    const before = await series();
    for (let i = 0; i < 60; i++)
      await request(t.server)
        .get(`${API}/no-such-thing-${i}/${'x'.repeat(i)}`)
        .expect(404);
    for (let i = 0; i < 5; i++) await request(t.server).get(`/console-deep-link-${i}`);
    expect(await series()).toBe(before);
    const { text, samples } = await scrape(t);
    expect(text).not.toContain('no-such-thing');
    expect(
      valueOf(samples, REQUESTS, {
        http_request_method: 'GET',
        http_route: 'unmatched',
        http_response_status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(60);
  });

  it('count a method outside the standard ones as _OTHER', async () => {
    await request(t.server).search(`${API}/developer/session`);
    const { samples } = await scrape(t);
    expect(samples.some((s) => s.labels.http_request_method === 'SEARCH')).toBe(false);
    expect(samples.some((s) => s.name === REQUESTS && s.labels.http_request_method === '_OTHER')).toBe(true);
  });

  it('count open-API calls by scope and outcome, on the partner lane and through koa alike, with no API id or member in any label', async () => {
    const before = (await scrape(t)).samples;
    const count = (samples: typeof before, outcome: string, scope = 'addons.read') =>
      valueOf(samples, OPEN_API, { scope, outcome }) ?? 0;
    await openCall(t, '/open/addons', partner.apiid, partner.apikey).expect(200);
    await openCall(t, '/open/addons?page=1', partner.apiid, partner.apikey).expect(422);
    await request(t.server)
      .head(`${API}/open/addons`)
      .set('X-API-ID', partner.apiid)
      .set('X-API-Key', partner.apikey)
      .expect(200);
    await openCall(t, '/open/addons', partner.apiid, mistypedKey(partner.apikey)).expect(401);
    await request(t.server).get(`${API}/open/addons`).expect(401);
    await openCall(t, '/open/member-groups', partner.apiid, partner.apikey).expect(403);
    const after = await scrape(t);
    expect(count(after.samples, 'ok') - count(before, 'ok')).toBe(2);
    expect(count(after.samples, 'invalid_key') - count(before, 'invalid_key')).toBe(2);
    // Through koa (a query string): the credential accepted, the request refused.
    expect(count(after.samples, 'invalid_request') - count(before, 'invalid_request')).toBe(1);
    expect(
      count(after.samples, 'scope_missing', 'member-groups.read') -
        count(before, 'scope_missing', 'member-groups.read'),
    ).toBe(1);
    // Every outcome of every scope is there from the start, at 0 until it happens.
    expect(valueOf(after.samples, OPEN_API, { scope: 'addons.read', outcome: 'revoked' })).toBe(0);
    expect(
      valueOf(after.samples, 'platform_open_api_request_duration_seconds_count', {
        scope: 'addons.read',
        outcome: 'invalid_key',
      }),
    ).toBeGreaterThanOrEqual(2);
    expect(
      valueOf(after.samples, REQUESTS, {
        http_request_method: 'GET',
        http_route: '/api/v1/open/addons',
        http_response_status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const secret of [partner.apiid, partner.apikey, partner.member.username]) {
      expect(after.samples.filter((s) => Object.values(s.labels).some((v) => v.includes(secret)))).toEqual([]);
    }
    // A histogram's bucket bound `le` may be any number; no other label may be the member's id.
    expect(
      after.samples.filter((s) =>
        Object.entries(s.labels).some(([k, v]) => k !== 'le' && v === String(partner.member.id)),
      ),
    ).toEqual([]);
    expect(after.samples.filter((s) => ['apiid', 'api_id', 'member', 'member_id'].some((l) => l in s.labels))).toEqual(
      [],
    );
  });

  it('tell where each projection stands: position, and a lag of 0 at the head of the log', async () => {
    await registerMember(t.client());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { samples } = await scrape(t);
    const lags = samples.filter((s) => s.name === 'platform_projection_lag_seconds');
    expect(lags.length).toBeGreaterThan(3);
    expect(lags.map((s) => s.value)).toEqual(lags.map(() => 0));
    const positions = samples.filter((s) => s.name === 'platform_projection_position');
    expect(positions.map((s) => s.labels.projection).sort()).toEqual(lags.map((s) => s.labels.projection).sort());
    expect(Math.min(...positions.map((s) => s.value))).toBeGreaterThan(0);
    expect(valueOf(samples, 'platform_projection_dead_letters')).toBe(0);
  });

  it("show the key ring in touch, the stores up, and the stores' calls timed", async () => {
    const { samples } = await scrape(t);
    expect(valueOf(samples, 'platform_key_ring_staleness_seconds')).toBe(0);
    expect(valueOf(samples, 'platform_key_ring_max_staleness_seconds')).toBe(5);
    expect(valueOf(samples, 'platform_store_up', { store: 'sqlite' })).toBe(1);
    expect(
      valueOf(samples, 'platform_event_store_operation_duration_seconds_count', { operation: 'append' }),
    ).toBeGreaterThan(5);
    expect(
      valueOf(samples, 'platform_document_store_operation_duration_seconds_count', { operation: 'write' }),
    ).toBeGreaterThan(0);
    expect(valueOf(samples, 'platform_password_checks_in_flight')).toBe(0);
  });

  it('count logins by realm and outcome', async () => {
    const client = t.client();
    const member = await registerMember(client);
    const token = (await client.get(`${API}/developer/session`)).body.data.csrf_token as string;
    await client
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', token)
      .send({ username: member.username, password: 'wrong-password' })
      .expect(401);
    const { samples } = await scrape(t);
    expect(valueOf(samples, 'platform_logins_total', { realm: 'member', outcome: 'wrong_password' })).toBe(1);
    expect(valueOf(samples, 'platform_logins_total', { realm: 'admin', outcome: 'success' })).toBeGreaterThanOrEqual(1);
  });
});

describe('METRICS_PORT=off', () => {
  it('starts no listener and measures nothing', async () => {
    const t = await startPlatform({ METRICS_PORT: 'off' });
    try {
      await request(t.server).get(`${API}/no-such-thing`).expect(404);
      expect(t.platform.metrics.address()).toBeNull();
      expect(await t.platform.metrics.registry.metrics()).toBe('\n');
    } finally {
      await t.close();
    }
  });
});
