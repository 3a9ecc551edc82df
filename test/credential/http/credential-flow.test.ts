import request from 'supertest';
import { csrfOf, expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

const API = '/api/v1';

/** A partner server's call: no cookie, the credential in headers. */
function partner(path: string, apiid: string, apikey: string) {
  return request(t.server).get(`${API}${path}`).set('X-API-ID', apiid).set('X-API-Key', apikey);
}

describe('the whole credential flow over HTTP', () => {
  it('register, apply, approve, claim, scopes, open calls, rotate, revoke', async () => {
    const developer = t.client();
    const member = await registerMember(developer);
    let token = member.token;

    const applied = await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', token).send({}).expect(200);
    expect(applied.body.data).toMatchObject({ status: 'pending', apiid: null, applied_at: expect.any(String) });

    const admin = t.client();
    const adminToken = await logInAdmin(admin);
    const pending = await admin.get(`${API}/credentials?status=pending`).expect(200);
    expect(pending.body.data.list).toContainEqual(
      expect.objectContaining({ member_id: member.id, username: member.username, status: 'pending' }),
    );

    // Claiming before approval is refused and appends nothing.
    await expectRefusal(
      t,
      () => developer.post(`${API}/developer/claim`).set('X-CSRF-Token', token).send({}),
      422,
      'credential_not_approved',
    );

    const approved = await admin
      .post(`${API}/credentials/${member.id}/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    expect(approved.body.data).toMatchObject({
      member_id: member.id,
      status: 'approved',
      reviewed_at: expect.any(String),
    });
    // Named, so that an administrator deciding down a queue sees which application changed.
    expect(approved.body.message).toBe(
      `${member.username}'s application approved: the member can claim the credential`,
    );

    const claimed = await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', token).send({}).expect(200);
    const { apiid, apikey } = claimed.body.data as { apiid: string; apikey: string };
    expect(apiid).toMatch(/^ak_[a-z2-7]{20}$/);
    expect(apikey).toMatch(/^sk_[A-Za-z0-9_-]{43}_[0-9A-Za-z]{6}$/);

    // A claimed key without any approved scope: accepted (not 401) but forbidden (403).
    await expectRefusal(t, () => partner('/open/addons', apiid, apikey), 403, 'scope_not_approved');

    const requested = await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', token)
      .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'sync the catalogue to our portal' })
      .expect(200);
    expect(requested.body.data.scopes.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ['addons.read', 'pending'],
      ['member-groups.read', 'pending'],
    ]);

    const queue = await admin.get(`${API}/scope-requests?status=pending`).expect(200);
    expect(queue.body.data.list).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          member_id: member.id,
          username: member.username,
          scope: 'addons.read',
          name: 'addons.read',
          status: 'pending',
          reason: 'sync the catalogue to our portal',
        }),
        expect.objectContaining({ member_id: member.id, name: 'member-groups.read', status: 'pending' }),
      ]),
    );

    const scopeApproved = await admin
      .post(`${API}/credentials/${member.id}/scopes/addons.read/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    expect(scopeApproved.body.data).toMatchObject({
      member_id: member.id,
      username: member.username,
      scope: 'addons.read',
      name: 'addons.read',
      status: 'approved',
    });
    expect(scopeApproved.body.message).toBe(`addons.read for ${member.username} approved`);
    const scopeRejected = await admin
      .post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`)
      .set('X-CSRF-Token', adminToken)
      .send({ reason: 'not needed for a catalogue sync' })
      .expect(200);
    expect(scopeRejected.body.data).toMatchObject({
      status: 'rejected',
      reject_reason: 'not needed for a catalogue sync',
    });

    const addons = await partner('/open/addons', apiid, apikey).expect(200);
    expect(addons.body).toEqual({ code: 0, message: 'ok', data: { list: [], next: null } });
    await expectRefusal(t, () => partner('/open/member-groups', apiid, apikey), 403, 'scope_not_approved');

    const dashboard = await developer.get(`${API}/developer/dashboard`).expect(200);
    expect(dashboard.body.data.credential).toMatchObject({ status: 'active', apiid, claimed_at: expect.any(String) });
    expect(dashboard.body.data.scopes).toEqual([
      expect.objectContaining({ name: 'addons.read', status: 'approved', reviewed_at: expect.any(String) }),
      expect.objectContaining({
        name: 'member-groups.read',
        status: 'rejected',
        reject_reason: 'not needed for a catalogue sync',
      }),
    ]);

    // Rotation without grace: the old key is refused from that moment.
    token = await csrfOf(developer);
    const rotated = await developer.post(`${API}/developer/rotate`).set('X-CSRF-Token', token).send({}).expect(200);
    expect(rotated.body.data).toMatchObject({
      apiid,
      apikey: expect.stringMatching(/^sk_/),
      previous_key_valid_until: null,
    });
    const newKey = rotated.body.data.apikey as string;
    expect(newKey).not.toBe(apikey);
    await expectRefusal(t, () => partner('/open/addons', apiid, apikey), 401, 'api_credentials_invalid');
    await partner('/open/addons', apiid, newKey).expect(200);

    await admin
      .post(`${API}/credentials/${member.id}/revoke`)
      .set('X-CSRF-Token', adminToken)
      .send({ reason: 'the partner contract ended' })
      .expect(200);
    await expectRefusal(t, () => partner('/open/addons', apiid, newKey), 401, 'credential_revoked');

    const after = await developer.get(`${API}/developer/dashboard`).expect(200);
    expect(after.body.data.credential).toMatchObject({
      status: 'revoked',
      revoke_reason: 'the partner contract ended',
    });
    expect(after.body.data.scopes).toEqual([
      expect.objectContaining({ name: 'addons.read', status: 'revoked' }),
      expect.objectContaining({ name: 'member-groups.read', status: 'rejected' }),
    ]);
  });
});
