import { Agent } from 'node:http';
import request from 'supertest';
import { activePartner, mistypedKey, Partner } from '../../support/credentials';
import { expectRefusal, startPlatform, TestPlatform } from '../../support/platform';
import { standingsOf } from '../../support/rate-limit-fields';

/**
 * Open-API calls refused for their credential (401) are counted per client address
 * (`open-api-credential-failures`): each 401 tells where the address stands, and past the limit
 * the answer is 429 too_many_credential_failures instead. An accepted call is never counted nor
 * blocked by it, and no partner's own `open-api` allowance is touched. The lane (GET without a
 * query string) and the router (a query string, HEAD) count the same attempts.
 */
const FAILURES = 3;
const CALLS = 50;
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({
    OPEN_API_CREDENTIAL_FAILURE_LIMIT: FAILURES,
    OPEN_API_CREDENTIAL_FAILURE_WINDOW_SECONDS: 60,
    OPEN_API_RATE_LIMIT: CALLS,
  });
});
afterAll(() => t.close());

/** Each test its own loopback address: another client address, with a count of its own. */
let nextHost = 10;
const agents: Agent[] = [];
function fromNewAddress(): Agent {
  const agent = new Agent({ localAddress: `127.0.0.${nextHost++}` });
  agents.push(agent);
  return agent;
}
afterAll(() => agents.forEach((agent) => agent.destroy()));

const FAILURES_ONLY = (r: number) => ({ 'open-api-credential-failures': { q: FAILURES, w: 60, r } });

const call = (from: Agent, headers: Record<string, string>, path = '/open/addons') =>
  request(t.server).get(`/api/v1${path}`).agent(from).set(headers);
const keyOf = (p: Partner) => ({ 'X-API-ID': p.apiid, 'X-API-Key': p.apikey });
const wrongKeyOf = (p: Partner) => ({ 'X-API-ID': p.apiid, 'X-API-Key': mistypedKey(p.apikey) });

let partner: Partner;
beforeAll(async () => {
  partner = await activePartner(t);
});

describe('calls refused for their credential, per client address', () => {
  it('tells every 401 where the address stands, whatever made the credential wrong, then answers 429 with Retry-After', async () => {
    const from = fromNewAddress();
    const refusals: [Record<string, string>, string][] = [
      [wrongKeyOf(partner), 'api_credentials_invalid'],
      [{ 'X-API-ID': partner.apiid }, 'api_credentials_missing'],
      [{ 'X-API-ID': 'ak_aaaaaaaaaaaaaaaaaaaa', 'X-API-Key': partner.apikey }, 'api_credentials_invalid'],
    ];
    for (const [i, [headers, error]] of refusals.entries()) {
      const res = await expectRefusal(t, () => call(from, headers), 401, error);
      expect(standingsOf(res)).toEqual(FAILURES_ONLY(FAILURES - 1 - i));
      expect(res.headers['ratelimit-remaining']).toBe(String(FAILURES - 1 - i));
    }
    const over = await expectRefusal(t, () => call(from, wrongKeyOf(partner)), 429, 'too_many_credential_failures');
    expect(standingsOf(over)).toEqual(FAILURES_ONLY(0));
    const retryAfter = Number(over.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.body.message).toBe(
      `this client address made more than ${FAILURES} calls refused for their credential in 60 s: retry in ${retryAfter} s`,
    );
    expect(JSON.stringify([over.body, over.headers, t.logLines])).not.toContain(partner.apikey);
  });

  it("still admits a correct key from that address, counting it only against its API id's own allowance", async () => {
    const from = fromNewAddress();
    const fresh = await activePartner(t);
    for (let i = 0; i <= FAILURES; i++) await call(from, wrongKeyOf(fresh));
    await expectRefusal(t, () => call(from, wrongKeyOf(fresh)), 429, 'too_many_credential_failures');
    // The refusals named this API id, yet took nothing from its allowance: its first accepted call leaves CALLS - 1.
    const accepted = await call(from, keyOf(fresh)).expect(200);
    expect(standingsOf(accepted)).toEqual({ 'open-api': { q: CALLS, w: 60, r: CALLS - 1 } });
    // And the accepted call gave the address nothing back: it is still over its limit.
    await expectRefusal(t, () => call(from, wrongKeyOf(fresh)), 429, 'too_many_credential_failures');
  });

  it("counts a revoked partner's own key too, and another address stands apart", async () => {
    const from = fromNewAddress();
    const revoked = await activePartner(t);
    await revoked.admin
      .post(`/api/v1/credentials/${revoked.member.id}/revoke`)
      .set('X-CSRF-Token', revoked.adminToken)
      .send({ reason: 'no longer a partner' })
      .expect(200);
    const res = await expectRefusal(t, () => call(from, keyOf(revoked)), 401, 'credential_revoked');
    expect(standingsOf(res)).toEqual(FAILURES_ONLY(FAILURES - 1));
    const elsewhere = await call(fromNewAddress(), keyOf(revoked)).expect(401);
    expect(standingsOf(elsewhere)).toEqual(FAILURES_ONLY(FAILURES - 1));
  });

  it('is one count for the partner lane and the router (a query string, HEAD), which answer alike', async () => {
    const from = fromNewAddress();
    const lane = await call(from, wrongKeyOf(partner)).expect(401);
    const router = await call(from, wrongKeyOf(partner), '/open/addons?page=1').expect(401);
    const head = await request(t.server).head('/api/v1/open/addons').agent(from).set(wrongKeyOf(partner)).expect(401);
    expect([lane, router, head].map((res) => standingsOf(res))).toEqual([
      FAILURES_ONLY(2),
      FAILURES_ONLY(1),
      FAILURES_ONLY(0),
    ]);
    expect(lane.body).toEqual(router.body);
    const overLane = await call(from, wrongKeyOf(partner)).expect(429);
    const overRouter = await call(from, wrongKeyOf(partner), '/open/addons?page=1').expect(429);
    expect(overRouter.body).toEqual(overLane.body);
    expect(overLane.body).toMatchObject({ code: 429, data: { error: 'too_many_credential_failures' } });
    expect(overRouter.headers['retry-after']).toEqual(expect.stringMatching(/^\d+$/));
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  it('counts the address the proxy appended, in the lane as in the router', async () => {
    const proxied = await startPlatform({ TRUST_PROXY: true, OPEN_API_CREDENTIAL_FAILURE_LIMIT: 2 });
    try {
      const from = (address: string, query = '') =>
        request(proxied.server)
          .get(`/api/v1/open/addons${query}`)
          .set({ 'X-API-ID': 'ak_aaaaaaaaaaaaaaaaaaaa', 'X-API-Key': 'wrong' })
          .set('X-Forwarded-For', `198.51.100.7, ${address}`);
      await from('203.0.113.1').expect(401);
      await from('203.0.113.1', '?page=1').expect(401);
      await from('203.0.113.1').expect(429);
      await from('203.0.113.1', '?page=1').expect(429);
      // The entry a client wrote before the proxy's is not its address: another client is not blocked.
      const other = await from('203.0.113.2').expect(401);
      expect(other.headers['ratelimit-remaining']).toBe('1');
    } finally {
      await proxied.close();
    }
  });
});
