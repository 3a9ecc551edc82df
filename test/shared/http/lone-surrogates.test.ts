import { csrfOf, expectRefusal, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { adminBrowser } from '../../access/http/access-clients';

/** JSON with a lone surrogate escaped in it, as a client can send it: JSON.stringify would write it escaped too. */
const withLoneSurrogate = (body: Record<string, unknown>, field: string) =>
  JSON.stringify(body).replace(`"${field}":"`, `"${field}":"x\\ud800`);

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

describe('a lone surrogate in any text field', () => {
  it('is refused in a nickname at registration, naming the field, registering nobody', async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const body = withLoneSurrogate(
      { username: uniqueUsername(), password: 'secret1', email: 'dev@example.com', nickname: 'Ann' },
      'nickname',
    );
    const refused = await expectRefusal(
      t,
      () =>
        client
          .post('/api/v1/developer/register')
          .set('X-CSRF-Token', token)
          .set('Content-Type', 'application/json')
          .send(body),
      422,
      'validation_failed',
    );
    expect(refused.body.data.issues).toEqual([
      { path: 'nickname', message: expect.stringContaining('lone surrogate') },
    ]);
  });

  it("is refused in a role group's name, and in a key nested in a body", async () => {
    const root = await adminBrowser(t);
    const send = (body: string) =>
      root.client
        .post('/api/v1/role-groups')
        .set('X-CSRF-Token', root.token)
        .set('Content-Type', 'application/json')
        .send(body);
    const named = await expectRefusal(
      t,
      () => send(withLoneSurrogate({ name: 'Ops', permissions: [] }, 'name')),
      422,
      'validation_failed',
    );
    expect(named.body.data.issues).toEqual([{ path: 'name', message: expect.any(String) }]);
    const keyed = await expectRefusal(
      t,
      () => send('{"name":"Ops","permissions":[],"x\\udc00":1}'),
      422,
      'validation_failed',
    );
    expect(keyed.body.data.issues).toEqual([{ path: 'x\udc00', message: expect.any(String) }]);
  });

  it('lets a pair through: an emoji is two UTF-16 halves that belong together', async () => {
    const root = await adminBrowser(t);
    await root.post('/role-groups', { name: `Ops 🚀 ${uniqueUsername('g')}`, permissions: [] }).expect(200);
  });
});
