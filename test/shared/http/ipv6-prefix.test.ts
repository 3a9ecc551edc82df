import { csrfOf, registerMember, startPlatform, TestPlatform } from '../../support/platform';

/** Behind a proxy (TRUST_PROXY), the client address is the last X-Forwarded-For entry: a test can speak from any IPv6 address. */
const API = '/api/v1';
const MAX_FAILURES = 2;

describe('per-address limits count an IPv6 client by its prefix (IPV6_PREFIX_BITS)', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform({ TRUST_PROXY: true, LOGIN_MAX_FAILURES: MAX_FAILURES, IPV6_PREFIX_BITS: 64 });
  });
  afterAll(() => t.close());

  async function loginFrom(username: string, password: string, address: string) {
    const client = t.client();
    const token = await csrfOf(client);
    return client
      .post(`${API}/developer/login`)
      .set('X-CSRF-Token', token)
      .set('X-Forwarded-For', address)
      .send({ username, password });
  }

  it('moving to another address of the same /64 keeps the count; another /64 is another client', async () => {
    const member = await registerMember(t.client());
    for (let i = 1; i <= MAX_FAILURES; i++)
      expect((await loginFrom(member.username, 'wrong-password', `2001:db8:0:1::${i}`)).status).toBe(401);
    expect((await loginFrom(member.username, member.password, '2001:db8:0:1:ffff::9')).status).toBe(429);
    expect((await loginFrom(member.username, member.password, '2001:db8:0:2::1')).status).toBe(200);
  });
});
