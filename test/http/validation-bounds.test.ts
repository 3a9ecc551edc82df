import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

describe('a body that breaks thousands of rules', () => {
  it('is answered with the first 20 issues and how many more, in a small answer', async () => {
    const admin = t.client();
    const token = await logInAdmin(admin);
    const pageRoles = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, 'x']));
    const res = await admin.put('/api/v1/addons/portal/access').set('X-CSRF-Token', token).send({ page_roles: pageRoles });
    expect(res.status).toBe(422);
    expect(res.body.data.error).toBe('validation_failed');
    expect(res.body.data.issues).toHaveLength(20);
    expect(res.body.data.issues[0]).toEqual({ path: expect.stringMatching(/^page_roles\./), message: expect.any(String) });
    const total = Number(/the first 20 of (\d+) are listed/.exec(res.body.message)?.[1]);
    expect(total).toBeGreaterThanOrEqual(3000);
    expect(res.body.message).toContain(`and ${total - 20} more issues`);
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });

  it('lists every issue when there are no more than 20', async () => {
    const client = t.client();
    const member = await registerMember(client);
    const res = await client.post('/api/v1/developer/scopes').set('X-CSRF-Token', member.token).send({ scopes: [1, 2], reason: 'integration' });
    expect(res.status).toBe(422);
    expect(res.body.data.issues).toHaveLength(2);
    expect(res.body.message).not.toContain('more issues');
  });
});
