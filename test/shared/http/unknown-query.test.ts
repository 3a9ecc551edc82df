import request from 'supertest';
import {
  Answer,
  csrfOf,
  expectRefusal,
  logInAdmin,
  registerMember,
  startPlatform,
  TestPlatform,
} from '../../support/platform';

/** Unknown query parameters are refused as unknown body fields are, on every endpoint. */

let t: TestPlatform;
let admin: request.Agent;
let adminToken: string;
beforeAll(async () => {
  t = await startPlatform();
  admin = t.client();
  adminToken = await logInAdmin(admin);
});
afterAll(() => t.close());

it('a filter written in another syntax (status[]=pending) is refused, not ignored', async () => {
  const res = await expectRefusal(
    t,
    () => admin.get('/api/v1/credentials?status[]=pending'),
    422,
    'unknown_query_parameter',
  );
  expect(res.body.message).toContain('"status[]"');
  expect(res.body.message).toContain('status');
  expect(res.body.data.issues).toEqual([{ path: 'status[]', message: expect.any(String) }]);
});

it.each([
  ['an endpoint that takes no query', () => admin.get('/api/v1/roles?foo=1')],
  ['a write', () => admin.post('/api/v1/admin/logout?foo=1').set('X-CSRF-Token', adminToken).send({})],
  [
    'an anonymous endpoint',
    async () => {
      const anonymous = t.client();
      const token = await csrfOf(anonymous);
      return anonymous.post('/api/v1/developer/register?foo=1').set('X-CSRF-Token', token).send({});
    },
  ],
])('%s refuses ?foo=1 with 422 unknown_query_parameter', async (_name, send) => {
  await expectRefusal(t, send as () => PromiseLike<Answer>, 422, 'unknown_query_parameter');
});

it('the parameters an endpoint declares are still accepted', async () => {
  await admin.get('/api/v1/credentials?status=pending').expect(200);
  const member = t.client();
  await registerMember(member);
  await member.get('/api/v1/developer/dashboard').expect(200);
});

it('a parameter given twice is refused by name, not as an array the endpoint never takes', async () => {
  const res = await expectRefusal(t, () => admin.get('/api/v1/credentials?limit=2&limit=3'), 422, 'validation_failed');
  expect(res.body.message).toBe('the query parameter "limit" is given 2 times: give it once');
  expect(res.body.data.issues).toEqual([{ path: 'limit', message: 'given more than once' }]);
});
