import { ADMIN_PASSWORD, csrfOf, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

/** The PHPSESSID settings of one answer: a client keeps one of several, no telling which. */
const sessionCookies = (res: { headers: Record<string, unknown> }) =>
  ([res.headers['set-cookie'] ?? []].flat() as string[]).filter((cookie) => cookie.startsWith('PHPSESSID='));

describe('an answer that gives the session a new id', () => {
  it('sets PHPSESSID once, to the new id, on register, login and logout', async () => {
    const client = t.client();
    const member = { username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' };
    // The token first: a request takes its cookies when it is made, before its arguments are awaited.
    const post = async (path: string, body?: object) => {
      const token = await csrfOf(client);
      return client.post(`/api/v1/developer/${path}`).set('X-CSRF-Token', token).send(body).expect(200);
    };
    const registered = await post('register', member);
    const loggedOut = await post('logout');
    const loggedIn = await post('login', { username: member.username, password: member.password });
    for (const res of [registered, loggedOut, loggedIn]) {
      expect(sessionCookies(res)).toEqual([expect.stringMatching(/^PHPSESSID=[^;]+;/)]);
    }
  });

  it('sets it once for an administrator login too', async () => {
    const client = t.client();
    const { body } = await client.get('/api/v1/admin/session').expect(200);
    const res = await client
      .post('/api/v1/admin/login')
      .set('X-CSRF-Token', body.data.csrf_token)
      .send({ username: 'admin', password: ADMIN_PASSWORD })
      .expect(200);
    expect(sessionCookies(res)).toHaveLength(1);
  });
});
