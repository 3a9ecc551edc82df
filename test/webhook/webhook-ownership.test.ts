import { roleAdmin, superAdmin, AdminBrowser } from '../support/addons';
import { expectRefusal, startPlatform, TestPlatform } from '../support/platform';
import { registerWebhook, webhookRoleGroup } from '../support/webhooks';

const API = '/api/v1';
const URL_OF = (n: number) => `http://127.0.0.1:9/hook-${n}`;

let t: TestPlatform;
let sales: AdminBrowser;
let billing: AdminBrowser;
let colleague: AdminBrowser;
let root: AdminBrowser;
beforeAll(async () => {
  t = await startPlatform({ WEBHOOK_ALLOW_PRIVATE: true });
  const group = (name: string) => webhookRoleGroup(t, name);
  const [salesGroup, billingGroup] = [await group('Sales'), await group('Billing')];
  [sales, billing, colleague, root] = [
    await roleAdmin(t, salesGroup),
    await roleAdmin(t, billingGroup),
    await roleAdmin(t, salesGroup),
    await superAdmin(t),
  ];
});
afterAll(() => t.close());

const register = async (admin: AdminBrowser, n: number): Promise<string> =>
  (await registerWebhook(admin, URL_OF(n))).id;

const listed = async (admin: AdminBrowser) =>
  ((await admin.client.get(`${API}/webhooks`).expect(200)).body.data.list as { url: string }[])
    .map((h) => h.url)
    .sort();

describe('webhooks belong to the role group that registered them', () => {
  it('another group sees none of them: list, deliveries, retry, rotation and removal are 404 as for none', async () => {
    const salesHook = await register(sales, 1);
    await register(billing, 2);
    expect(await listed(sales)).toEqual([URL_OF(1)]);
    expect(await listed(colleague)).toEqual([URL_OF(1)]);
    expect(await listed(billing)).toEqual([URL_OF(2)]);

    const asBilling = billing.client;
    await expectRefusal(t, () => asBilling.get(`${API}/webhooks/${salesHook}/deliveries`), 404, 'webhook_not_found');
    await expectRefusal(
      t,
      () =>
        asBilling.post(`${API}/webhooks/${salesHook}/deliveries/x/retry`).set('X-CSRF-Token', billing.token).send({}),
      404,
      'webhook_not_found',
    );
    await expectRefusal(
      t,
      () => asBilling.post(`${API}/webhooks/${salesHook}/rotate-secret`).set('X-CSRF-Token', billing.token).send({}),
      404,
      'webhook_not_found',
    );
    await expectRefusal(
      t,
      () => asBilling.delete(`${API}/webhooks/${salesHook}`).set('X-CSRF-Token', billing.token),
      404,
      'webhook_not_found',
    );
    await colleague.client.get(`${API}/webhooks/${salesHook}/deliveries`).expect(200);
  });

  it("a super administrator sees and manages every group's, and its own are for super administrators only", async () => {
    const salesHook = await register(sales, 3);
    await register(root, 4);
    expect(await listed(root)).toEqual(expect.arrayContaining([URL_OF(1), URL_OF(2), URL_OF(3), URL_OF(4)]));
    expect(await listed(sales)).not.toContain(URL_OF(4));
    expect(await listed(billing)).not.toContain(URL_OF(4));
    await root.client
      .post(`${API}/webhooks/${salesHook}/rotate-secret`)
      .set('X-CSRF-Token', root.token)
      .send({})
      .expect(200);
    await root.client.delete(`${API}/webhooks/${salesHook}`).set('X-CSRF-Token', root.token).expect(200);
    expect(await listed(sales)).toEqual([URL_OF(1)]);
  });
});
