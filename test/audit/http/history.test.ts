import { credentialStream } from '../../../src/credential/decider';
import { activePartner, approvedMember, rotate } from '../../support/credentials';
import { csrfOf, expectRefusal, logInAdmin } from '../../support/platform';
import { API, auditTrail } from '../support/audit-trail';

// A credential's history as auditors read it, who may read it, and how they find a member.

const trail = auditTrail();
const { history } = trail;

describe('GET /credentials/{member_id}/history', () => {
  it('names each actor with kind, id and username, gives reasons, and never a key or its digest', async () => {
    const partner = await activePartner(trail.t, ['addons.read']);
    const { member, developer } = partner;
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', await csrfOf(developer))
      .send({ scopes: ['member-groups.read'], reason: 'list member groups' })
      .expect(200);
    await trail.operator.client
      .post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`)
      .set('X-CSRF-Token', trail.operator.token)
      .send({ reason: 'not needed for this integration' })
      .expect(200);
    const newKey = await rotate(partner, { grace_seconds: 60 });
    await trail.operator.client
      .post(`${API}/credentials/${member.id}/revoke`)
      .set('X-CSRF-Token', trail.operator.token)
      .send({ reason: 'contract ended' })
      .expect(200);

    const res = await history(member.id).expect(200);
    const superAdmin = (await trail.t.allEvents()).find(
      (e) => e.type === 'AdminCreated' && e.data.username === 'admin',
    )!.data.admin_id;
    const asMember = { kind: 'member', id: member.id, username: member.username };
    const asSuper = { kind: 'admin', id: superAdmin, username: 'admin' };
    const asOperator = { kind: 'admin', id: trail.operator.id, username: trail.operator.username };
    expect(res.body.data).toEqual({ member_id: member.id, username: member.username, events: expect.any(Array) });
    expect(res.body.data.events).toEqual([
      expect.objectContaining({ type: 'MemberRegistered', actor: asMember }),
      expect.objectContaining({
        type: 'CredentialApplied',
        actor: asMember,
        data: { member_id: member.id, username: member.username, purpose: null, company: null, website: null },
      }),
      expect.objectContaining({ type: 'CredentialApproved', actor: asSuper }),
      expect.objectContaining({
        type: 'CredentialClaimed',
        actor: asMember,
        data: { member_id: member.id, apiid: partner.apiid, expires_at: null },
      }),
      expect.objectContaining({ type: 'ScopeRequested', actor: asMember, reason: 'integration' }),
      expect.objectContaining({ type: 'ScopeApproved', actor: asSuper }),
      expect.objectContaining({ type: 'ScopeRequested', actor: asMember, reason: 'list member groups' }),
      expect.objectContaining({ type: 'ScopeRejected', actor: asOperator, reason: 'not needed for this integration' }),
      expect.objectContaining({
        type: 'KeyRotated',
        actor: asMember,
        data: {
          member_id: member.id,
          apiid: partner.apiid,
          previous_key_valid_until: expect.any(String),
          earlier_keys: [],
        },
      }),
      expect.objectContaining({ type: 'CredentialRevoked', actor: asOperator, reason: 'contract ended' }),
    ]);
    const events = res.body.data.events as { position: string; revision: number; time: string; stream: string }[];
    const ofCredential = events.filter((e) => e.stream === credentialStream(member.id));
    expect(ofCredential.map((e) => e.revision)).toEqual(ofCredential.map((_, i) => i));
    expect(ofCredential).toHaveLength(events.length - 1);
    expect(events.every((e) => /^\d{4}-\d\d-\d\dT/.test(e.time))).toBe(true);
    expect([...events.map((e) => e.position)].sort()).toEqual(events.map((e) => e.position));
    expect(res.body.data.events.find((e: { type: string }) => e.type === 'CredentialApproved')).not.toHaveProperty(
      'reason',
    );

    const stored = await trail.t.platform.stores.events.readStream(credentialStream(member.id));
    const digests = stored
      .flatMap((e) => [e.data.key_digest, e.data.previous_key_digest])
      .filter((d): d is string => typeof d === 'string');
    expect(digests).toHaveLength(3);
    for (const secret of [...digests, partner.apikey, newKey, 'key_digest']) expect(res.text).not.toContain(secret);
  });

  it('is 404 for an id no member has (a member who never applied has a history: account-history.test.ts); 422 for a malformed id', async () => {
    const res = await expectRefusal(trail.t, () => history(999_999), 404, 'member_not_found');
    expect(res.body.message).toContain('no member has the id 999999');
    await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/credentials/abc/history`),
      422,
      'invalid_path_parameter',
    );
  });
});

describe('who may read the audit trail', () => {
  const paths = (memberId: number) => [`${API}/credentials/${memberId}/history`, `${API}/audit/events`];

  it('is for administrators holding audit.read: auditors and super administrators', async () => {
    const { member } = await approvedMember(trail.t);
    const superAdmin = trail.t.client();
    await logInAdmin(superAdmin);
    for (const path of paths(member.id)) {
      await trail.auditor.get(path).expect(200);
      await superAdmin.get(path).expect(200);
    }
  });

  it('refuses anonymous callers and members (401) and administrators without audit.read (403)', async () => {
    const { member, developer } = await approvedMember(trail.t);
    for (const path of paths(member.id)) {
      await expectRefusal(trail.t, () => trail.t.client().get(path), 401, 'admin_not_logged_in');
      await expectRefusal(trail.t, () => developer.get(path), 401, 'admin_not_logged_in');
      await expectRefusal(trail.t, () => trail.operator.client.get(path), 403, 'permission_denied');
    }
  });
});

describe('GET /audit/members: the auditor finds a member without the review queue', () => {
  it('by username in any case, or by API id, for role group Auditors, which may not list credentials', async () => {
    const p = await activePartner(trail.t);
    await expectRefusal(trail.t, () => trail.auditor.get(`${API}/credentials`), 403, 'permission_denied');
    const expected = { member_id: p.member.id, username: p.member.username };
    expect(
      (await trail.auditor.get(`${API}/audit/members`).query({ username: p.member.username.toUpperCase() }).expect(200))
        .body.data,
    ).toEqual(expected);
    expect((await trail.auditor.get(`${API}/audit/members`).query({ apiid: p.apiid }).expect(200)).body.data).toEqual(
      expected,
    );
  });

  it('finds the member by an API id the member claimed before applying again', async () => {
    const p = await activePartner(trail.t);
    const { developer, member, admin, adminToken } = p;
    await admin
      .post(`${API}/credentials/${member.id}/revoke`)
      .set('X-CSRF-Token', adminToken)
      .send({ reason: 'contract ended' })
      .expect(200);
    await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', adminToken).send({}).expect(200);
    const claimed = await developer
      .post(`${API}/developer/claim`)
      .set('X-CSRF-Token', member.token)
      .send({})
      .expect(200);
    expect(claimed.body.data.apiid).not.toBe(p.apiid);
    const expected = { member_id: member.id, username: member.username };
    for (const apiid of [p.apiid, claimed.body.data.apiid]) {
      expect((await trail.auditor.get(`${API}/audit/members`).query({ apiid }).expect(200)).body.data).toEqual(
        expected,
      );
    }
  });

  it('answers 404 for a name nobody has, masking a key typed by mistake, and 422 without exactly one of username and apiid', async () => {
    const p = await activePartner(trail.t);
    const unknown = await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/audit/members`).query({ username: 'nobody-here' }),
      404,
      'member_not_found',
    );
    expect(unknown.body.message).toContain('"nobody-here"');
    const key = await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/audit/members`).query({ apiid: p.apikey }),
      404,
      'member_not_found',
    );
    expect(key.body.message).not.toContain(p.apikey.slice(3, 46));
    const neither = await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/audit/members`),
      422,
      'validation_failed',
    );
    expect(neither.body.data.issues).toEqual([{ path: '(query)', message: 'give username or apiid, one of them' }]);
    const empty = await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/audit/members`).query({ username: '' }),
      422,
      'validation_failed',
    );
    expect(empty.body.message).toBe('username: username is empty: give the username, or leave the parameter out');
    await expectRefusal(
      trail.t,
      () => trail.auditor.get(`${API}/audit/members`).query({ username: p.member.username, apiid: p.apiid }),
      422,
      'validation_failed',
    );
  });

  it('is refused to an administrator without audit.read', async () => {
    await expectRefusal(
      trail.t,
      () => trail.operator.client.get(`${API}/audit/members`).query({ username: 'x' }),
      403,
      'permission_denied',
    );
  });
});
