import request from 'supertest';
import { csrfOf, registerMember, startPlatform, TestPlatform } from '../../support/platform';

const LIMIT = 5;
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ MEMBER_WRITE_LIMIT: LIMIT });
});
afterAll(() => t.close());

const ACCOUNT = '/api/v1/developer/account';

async function put(client: request.Agent, body: object) {
  return client
    .put(ACCOUNT)
    .set('X-CSRF-Token', await csrfOf(client))
    .send(body);
}

describe('self-service writes per member (MEMBER_WRITE_LIMIT a minute)', () => {
  it('refuses the write past the limit with 429 too_many_changes and Retry-After; reads, the logout and other members go on', async () => {
    const client = t.client();
    const member = await registerMember(client, { mobile: '+8613800138000' });
    for (let i = 0; i < LIMIT; i++) {
      const saved = await put(client, { nickname: `n${i}`, mobile: '+8613800138000' });
      expect(saved.status).toBe(200);
      expect([
        saved.headers['ratelimit-policy'],
        saved.headers['ratelimit-limit'],
        saved.headers['ratelimit-remaining'],
      ]).toEqual([`"member-write";q=${LIMIT};w=60`, String(LIMIT), String(LIMIT - 1 - i)]);
    }
    const refused = await put(client, { nickname: 'one more', mobile: '+8613800138000' });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.body.data.error).toBe('too_many_changes');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    const passwordToo = await client
      .post('/api/v1/developer/password')
      .set('X-CSRF-Token', await csrfOf(client))
      .send({ current_password: member.password, new_password: 'another1' });
    expect(passwordToo.body.data.error).toBe('too_many_changes');
    await client.get(ACCOUNT).expect(200);
    const updated = (await t.allEvents()).filter((e) => e.type === 'ProfileUpdated' && e.data.member_id === member.id);
    expect(updated).toHaveLength(LIMIT);

    const neighbour = t.client();
    await registerMember(neighbour, { mobile: '+8613800138001' });
    expect((await put(neighbour, { nickname: 'mine', mobile: '+8613800138001' })).status).toBe(200);
    await client
      .post('/api/v1/developer/logout')
      .set('X-CSRF-Token', await csrfOf(client))
      .expect(200);
  });

  it('appends nothing for a change to the same value', async () => {
    const client = t.client();
    const member = await registerMember(client, { mobile: '+8613800138002' });
    await put(client, { nickname: 'Same', mobile: '+8613800138002' });
    await put(client, { nickname: 'Same', mobile: '+8613800138002' });
    const updated = (await t.allEvents()).filter((e) => e.type === 'ProfileUpdated' && e.data.member_id === member.id);
    expect(updated).toHaveLength(1);
  });
});
