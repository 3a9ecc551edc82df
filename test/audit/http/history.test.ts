import request from 'supertest';
import { createAdmin } from '../../../src/access/admins';
import { argon2Hasher } from '../../../src/member/passwords';
import { credentialStream } from '../../../src/credential/decider';
import { activePartner, approvedMember, rotate } from '../../support/credentials';
import { csrfOf, expectRefusal, logInAdmin, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';
import { SHELL } from '../../../src/access/grantor';

const API = '/api/v1';

let t: TestPlatform;
let auditor: request.Agent;
let operator: { client: request.Agent; token: string; id: number; username: string };

/** An administrator in a seeded role group (1 Operators, 2 Auditors), logged in on a client of its own. */
async function adminInRoleGroup(role_id: number) {
  const account = { username: uniqueUsername('adm'), password: 'role-secret', is_super: false, role_id };
  const { id } = await createAdmin(t.platform.stores.events, argon2Hasher(), account, SHELL, {
    actor: { kind: 'cli', id: 'test' },
    requestId: 'test',
    now: new Date(),
  });
  const client = t.client();
  const token = await logInAdmin(client, { username: account.username, password: account.password });
  return { client, token, id, username: account.username };
}

beforeAll(async () => {
  t = await startPlatform();
  auditor = (await adminInRoleGroup(2)).client;
  operator = await adminInRoleGroup(1);
});
afterAll(() => t.close());

const history = (memberId: number, asOf?: string) =>
  auditor.get(`${API}/credentials/${memberId}/history`).query(asOf === undefined ? {} : { as_of: asOf });

/** Waits until the clock has moved past the last event's millisecond, so that the next event is strictly later. */
async function nextMillisecond(): Promise<void> {
  const last = (await t.allEvents()).at(-1)!.metadata.time;
  while (new Date().toISOString() <= last) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** The same instant written with a +08:00 offset, as a client in another zone would send it. */
function inUtcPlus8(iso: string): string {
  const shifted = new Date(Date.parse(iso) + 8 * 3600_000).toISOString();
  return `${shifted.slice(0, -1)}+08:00`;
}

describe('GET /credentials/{member_id}/history?as_of=', () => {
  it('answers the state at three instants of one credential: pending, active with a scope approved, revoked', async () => {
    // Between the application and its approval the administrator logs in: many milliseconds.
    const { developer, member, admin, adminToken } = await approvedMember(t);
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', member.token)
      .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'show our users the add-ons' })
      .expect(200);
    await nextMillisecond();
    await admin
      .post(`${API}/credentials/${member.id}/scopes/addons.read/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    await nextMillisecond();
    await admin
      .post(`${API}/credentials/${member.id}/revoke`)
      .set('X-CSRF-Token', adminToken)
      .send({ reason: 'contract ended' })
      .expect(200);

    const all = (await history(member.id).expect(200)).body.data.events as { type: string; time: string }[];
    // The member's registration comes first: the history holds their account's events too.
    expect(all.map((e) => e.type)).toEqual([
      'MemberRegistered',
      'CredentialApplied',
      'CredentialApproved',
      'CredentialClaimed',
      'ScopeRequested',
      'ScopeRequested',
      'ScopeApproved',
      'CredentialRevoked',
    ]);
    const timeOf = (type: string) => all.find((e) => e.type === type)!.time;

    // 1. Right after the application (an instant in another zone names the same moment).
    const pending = (await history(member.id, inUtcPlus8(timeOf('CredentialApplied'))).expect(200)).body.data;
    expect(pending.as_of).toBe(inUtcPlus8(timeOf('CredentialApplied')));
    expect(pending.events.map((e: { type: string }) => e.type)).toEqual(['MemberRegistered', 'CredentialApplied']);
    expect(pending.state).toEqual({
      credential: expect.objectContaining({
        status: 'pending',
        applied_at: timeOf('CredentialApplied'),
        reviewed_at: null,
        apiid: null,
      }),
      scopes: [],
      expired: false,
    });

    // 2. After the scope decision, before the revocation.
    const active = (await history(member.id, timeOf('ScopeApproved')).expect(200)).body.data;
    expect(active.events).toHaveLength(7);
    expect(active.state.credential).toMatchObject({
      status: 'active',
      apiid: expect.stringMatching(/^ak_/),
      revoked_at: null,
    });
    expect(active.state.scopes).toEqual([
      expect.objectContaining({ name: 'addons.read', status: 'approved', reviewed_at: timeOf('ScopeApproved') }),
      expect.objectContaining({ name: 'member-groups.read', status: 'pending', reason: 'show our users the add-ons' }),
    ]);

    // 3. Now: revoked, and every live scope revoked with it.
    const revoked = (await history(member.id, new Date().toISOString()).expect(200)).body.data;
    expect(revoked.events).toHaveLength(8);
    expect(revoked.state.credential).toMatchObject({ status: 'revoked', revoke_reason: 'contract ended' });
    expect(revoked.state.scopes.map((s: { status: string }) => s.status)).toEqual(['revoked', 'revoked']);

    // The replay at "now" is what the member's own dashboard shows.
    const dashboard = (await developer.get(`${API}/developer/dashboard`).expect(200)).body.data;
    expect(revoked.state).toEqual({ credential: dashboard.credential, scopes: dashboard.scopes, expired: false });

    // Before the first event the credential did not exist yet.
    const before = new Date(Date.parse(timeOf('CredentialApplied')) - 1).toISOString();
    const none = (await history(member.id, before).expect(200)).body.data;
    expect(none.events.map((e: { stream: string }) => e.stream)).not.toContain(credentialStream(member.id));
    expect(none.state).toEqual({
      credential: expect.objectContaining({ status: 'none', apiid: null, applied_at: null }),
      scopes: [],
      expired: false,
    });
  });

  it('says whether the key had expired at the instant, as the open API then refused it', async () => {
    // Expiring in a moment: an instant can only be asked about once it has passed.
    const { developer, member } = await approvedMember(t, () => ({
      expires_at: new Date(Date.now() + 1500).toISOString(),
    }));
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const expiresAt = (await history(member.id).expect(200)).body.data.events.at(-1).data.expires_at as string;
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 10));
    const justBefore = new Date(Date.parse(expiresAt) - 1).toISOString();
    const atExpiry = (await history(member.id, expiresAt).expect(200)).body.data.state;
    expect((await history(member.id, justBefore).expect(200)).body.data.state).toMatchObject({
      credential: { status: 'active' },
      expired: false,
    });
    expect(atExpiry).toMatchObject({ credential: { status: 'active', expires_at: expiresAt }, expired: true });
  });

  it('refuses an as_of that is not an ISO 8601 time with a zone', async () => {
    const { member } = await approvedMember(t);
    for (const bad of ['yesterday', '2026-11-22T04:18:52', '2026-13-01T00:00:00Z', '1700000000']) {
      const res = await expectRefusal(t, () => history(member.id, bad), 422, 'validation_failed');
      expect(res.body.data.issues).toEqual([{ path: 'as_of', message: expect.stringContaining('ISO 8601') }]);
    }
  });
});

describe('GET /credentials/{member_id}/history?as_of= in the future', () => {
  it('is refused with 422 naming as_of: the history holds what has happened', async () => {
    const { member } = await approvedMember(t);
    const res = await expectRefusal(t, () => history(member.id, '2099-01-01T00:00:00Z'), 422, 'validation_failed');
    expect(res.body.data.issues).toEqual([{ path: 'as_of', message: expect.stringContaining('in the future') }]);
    await history(member.id, new Date().toISOString()).expect(200);
  });
});

describe('GET /credentials/{member_id}/history', () => {
  it('names each actor with kind, id and username, gives reasons, and never a key or its digest', async () => {
    const partner = await activePartner(t, ['addons.read']);
    const { member, developer } = partner;
    await developer
      .post(`${API}/developer/scopes`)
      .set('X-CSRF-Token', await csrfOf(developer))
      .send({ scopes: ['member-groups.read'], reason: 'list member groups' })
      .expect(200);
    await operator.client
      .post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`)
      .set('X-CSRF-Token', operator.token)
      .send({ reason: 'not needed for this integration' })
      .expect(200);
    const newKey = await rotate(partner, { grace_seconds: 60 });
    await operator.client
      .post(`${API}/credentials/${member.id}/revoke`)
      .set('X-CSRF-Token', operator.token)
      .send({ reason: 'contract ended' })
      .expect(200);

    const res = await history(member.id).expect(200);
    const superAdmin = (await t.allEvents()).find((e) => e.type === 'AdminCreated' && e.data.username === 'admin')!.data
      .admin_id;
    const asMember = { kind: 'member', id: member.id, username: member.username };
    const asSuper = { kind: 'admin', id: superAdmin, username: 'admin' };
    const asOperator = { kind: 'admin', id: operator.id, username: operator.username };
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

    const stored = await t.platform.stores.events.readStream(credentialStream(member.id));
    const digests = stored
      .flatMap((e) => [e.data.key_digest, e.data.previous_key_digest])
      .filter((d): d is string => typeof d === 'string');
    expect(digests).toHaveLength(3);
    for (const secret of [...digests, partner.apikey, newKey, 'key_digest']) expect(res.text).not.toContain(secret);
  });

  it('is 404 for an id no member has (a member who never applied has a history: account-history.test.ts); 422 for a malformed id', async () => {
    const res = await expectRefusal(t, () => history(999_999), 404, 'member_not_found');
    expect(res.body.message).toContain('no member has the id 999999');
    await expectRefusal(t, () => auditor.get(`${API}/credentials/abc/history`), 422, 'invalid_path_parameter');
  });
});

describe('who may read the audit trail', () => {
  const paths = (memberId: number) => [`${API}/credentials/${memberId}/history`, `${API}/audit/events`];

  it('is for administrators holding audit.read: auditors and super administrators', async () => {
    const { member } = await approvedMember(t);
    const superAdmin = t.client();
    await logInAdmin(superAdmin);
    for (const path of paths(member.id)) {
      await auditor.get(path).expect(200);
      await superAdmin.get(path).expect(200);
    }
  });

  it('refuses anonymous callers and members (401) and administrators without audit.read (403)', async () => {
    const { member, developer } = await approvedMember(t);
    for (const path of paths(member.id)) {
      await expectRefusal(t, () => t.client().get(path), 401, 'admin_not_logged_in');
      await expectRefusal(t, () => developer.get(path), 401, 'admin_not_logged_in');
      await expectRefusal(t, () => operator.client.get(path), 403, 'permission_denied');
    }
  });
});

describe('GET /audit/members: the auditor finds a member without the review queue', () => {
  it('by username in any case, or by API id, for role group Auditors, which may not list credentials', async () => {
    const p = await activePartner(t);
    await expectRefusal(t, () => auditor.get(`${API}/credentials`), 403, 'permission_denied');
    const expected = { member_id: p.member.id, username: p.member.username };
    expect(
      (await auditor.get(`${API}/audit/members`).query({ username: p.member.username.toUpperCase() }).expect(200)).body
        .data,
    ).toEqual(expected);
    expect((await auditor.get(`${API}/audit/members`).query({ apiid: p.apiid }).expect(200)).body.data).toEqual(
      expected,
    );
  });

  it('finds the member by an API id the member claimed before applying again', async () => {
    const p = await activePartner(t);
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
      expect((await auditor.get(`${API}/audit/members`).query({ apiid }).expect(200)).body.data).toEqual(expected);
    }
  });

  it('answers 404 for a name nobody has, masking a key typed by mistake, and 422 without exactly one of username and apiid', async () => {
    const p = await activePartner(t);
    const unknown = await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/members`).query({ username: 'nobody-here' }),
      404,
      'member_not_found',
    );
    expect(unknown.body.message).toContain('"nobody-here"');
    const key = await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/members`).query({ apiid: p.apikey }),
      404,
      'member_not_found',
    );
    expect(key.body.message).not.toContain(p.apikey.slice(3, 46));
    const neither = await expectRefusal(t, () => auditor.get(`${API}/audit/members`), 422, 'validation_failed');
    expect(neither.body.data.issues).toEqual([{ path: '(query)', message: 'give username or apiid, one of them' }]);
    const empty = await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/members`).query({ username: '' }),
      422,
      'validation_failed',
    );
    expect(empty.body.message).toBe('username: username is empty: give the username, or leave the parameter out');
    await expectRefusal(
      t,
      () => auditor.get(`${API}/audit/members`).query({ username: p.member.username, apiid: p.apiid }),
      422,
      'validation_failed',
    );
  });

  it('is refused to an administrator without audit.read', async () => {
    await expectRefusal(
      t,
      () => operator.client.get(`${API}/audit/members`).query({ username: 'x' }),
      403,
      'permission_denied',
    );
  });
});
