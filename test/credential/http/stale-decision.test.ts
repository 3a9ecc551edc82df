import { approvedMember } from '../../support/credentials';
import { expectRefusal, startPlatform, TestPlatform } from '../../support/platform';

/** A decision too late for a matter decided meanwhile (another tab, another administrator) says who decided it, and when. */

const API = '/api/v1';
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

it('a second decision on an application names the administrator who made the first, and when', async () => {
  const { member, admin, adminToken } = await approvedMember(t);
  const before = new Date().toISOString();
  const res = await expectRefusal(
    t,
    () => admin.post(`${API}/credentials/${member.id}/reject`).set('X-CSRF-Token', adminToken).send({ reason: 'late' }),
    422,
    'credential_not_pending',
  );
  expect(res.body.data).toMatchObject({ decided_by: 'admin', decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  expect(String(res.body.data.decided_at) <= before).toBe(true);
  expect(res.body.message).toContain(`admin decided it at ${String(res.body.data.decided_at)}`);
});

it("a second decision on a scope names the decision on that scope, not the credential's", async () => {
  const { developer, member, admin, adminToken } = await approvedMember(t);
  await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
  await developer
    .post(`${API}/developer/scopes`)
    .set('X-CSRF-Token', member.token)
    .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'sync' })
    .expect(200);
  const rejected = await admin
    .post(`${API}/credentials/${member.id}/scopes/addons.read/reject`)
    .set('X-CSRF-Token', adminToken)
    .send({ reason: 'not needed' })
    .expect(200);
  const res = await expectRefusal(
    t,
    () =>
      admin.post(`${API}/credentials/${member.id}/scopes/addons.read/approve`).set('X-CSRF-Token', adminToken).send({}),
    422,
    'scope_not_pending',
  );
  expect(res.body.data).toMatchObject({ decided_by: 'admin', decided_at: rejected.body.data.reviewed_at });
  // The other scope is still pending: deciding it is no refusal.
  await admin
    .post(`${API}/credentials/${member.id}/scopes/member-groups.read/approve`)
    .set('X-CSRF-Token', adminToken)
    .send({})
    .expect(200);
});

it('a refusal for a matter no administrator decided carries no decided_by', async () => {
  const { developer, member, admin, adminToken } = await approvedMember(t);
  await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
  const res = await expectRefusal(
    t,
    () =>
      admin.post(`${API}/credentials/${member.id}/scopes/addons.read/approve`).set('X-CSRF-Token', adminToken).send({}),
    422,
    'scope_not_pending',
  );
  expect(res.body.data).not.toHaveProperty('decided_by');
});
