import { roleAdmin, superAdmin, AdminBrowser } from '../support/addons';
import { expectRefusal, startPlatform, TestPlatform } from '../support/platform';
import { registerWebhook, webhookRoleGroup } from '../support/webhooks';

const API = '/api/v1';

let t: TestPlatform;
let strict: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true });
  strict = await startPlatform({});
});
afterAll(async () => {
  await t.close();
  await strict.close();
});

const register = async (admin: AdminBrowser, url: string): Promise<string> => (await registerWebhook(admin, url)).id;
const change = (admin: AdminBrowser, id: string, body: unknown) =>
  admin.client
    .put(`${API}/webhooks/${id}`)
    .set('X-CSRF-Token', admin.token)
    .send(body as object);
const listed = async (admin: AdminBrowser) =>
  (await admin.client.get(`${API}/webhooks`).expect(200)).body.data.list as {
    id: string;
    url: string;
    events: string[];
  }[];

describe('PUT /webhooks/{id}', () => {
  it('changes the URL and the events; the list shows them, and an event records the change for the audit', async () => {
    const admin = await superAdmin(t);
    const id = await register(admin, 'http://127.0.0.1:9/before');
    const res = await change(admin, id, {
      url: 'http://127.0.0.1:9/after',
      events: ['credential.applied', 'scope.requested'],
    }).expect(200);
    expect(res.body.data).toEqual({
      id,
      url: 'http://127.0.0.1:9/after',
      events: ['credential.applied', 'scope.requested'],
      created_at: expect.any(String),
    });
    expect((await listed(admin)).find((h) => h.id === id)).toEqual(res.body.data);
    const changed = (await t.allEvents()).filter((e) => e.type === 'WebhookChanged');
    expect(changed.map((e) => e.data)).toEqual([
      { webhook_id: id, url: 'http://127.0.0.1:9/after', events: ['credential.applied', 'scope.requested'] },
    ]);
  });

  it('refuses what registration refuses, and changes nothing', async () => {
    const admin = await superAdmin(strict);
    const id = await register(admin, 'https://8.8.8.8/hook');
    const before = await listed(admin);
    for (const url of [
      'http://127.0.0.1:9/x',
      'http://10.1.2.3/x',
      'http://localhost/x',
      'ftp://example.com/x',
      'http://user:pw@8.8.8.8/x',
      'not a url',
    ]) {
      await expectRefusal(
        strict,
        () => change(admin, id, { url, events: ['credential.approved'] }),
        422,
        'invalid_webhook_url',
      );
    }
    await expectRefusal(
      strict,
      () => change(admin, id, { url: 'https://8.8.4.4/x', events: ['nope'] }),
      422,
      'validation_failed',
    );
    await expectRefusal(
      strict,
      () => change(admin, id, { url: 'https://8.8.4.4/x', events: [] }),
      422,
      'validation_failed',
    );
    await expectRefusal(strict, () => change(admin, id, { events: ['credential.approved'] }), 422, 'validation_failed');
    await expectRefusal(
      strict,
      () => change(admin, id, { url: 'https://8.8.4.4/x', events: ['credential.approved'], secret: 'mine' }),
      422,
      'validation_failed',
    );
    await expectRefusal(
      strict,
      () =>
        admin.client
          .put(`${API}/webhooks/${id}`)
          .set('X-CSRF-Token', admin.token)
          .set('Content-Type', 'application/json')
          .send('{"url": '),
      422,
      'malformed_json',
    );
    expect(await listed(admin)).toEqual(before);
  });

  it("is another role group's webhook: 404 as for none, and it stays as it was", async () => {
    const group = (name: string) => webhookRoleGroup(t, name);
    const [owners, others] = [await roleAdmin(t, await group('Owners')), await roleAdmin(t, await group('Strangers'))];
    const id = await register(owners, 'http://127.0.0.1:9/owned');
    await expectRefusal(
      t,
      () => change(others, id, { url: 'http://127.0.0.1:9/taken', events: ['credential.approved'] }),
      404,
      'webhook_not_found',
    );
    await expectRefusal(
      t,
      () =>
        change(owners, '00000000-0000-4000-8000-000000000000', {
          url: 'http://127.0.0.1:9/x',
          events: ['credential.approved'],
        }),
      404,
      'webhook_not_found',
    );
    expect((await listed(owners)).map((h) => h.url)).toEqual(['http://127.0.0.1:9/owned']);
    await change(owners, id, { url: 'http://127.0.0.1:9/moved', events: ['credential.approved'] }).expect(200);
  });
});
