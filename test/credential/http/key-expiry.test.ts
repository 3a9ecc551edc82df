import { activePartner, claim, openCall, rotate } from '../../support/credentials';
import { expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

const API = '/api/v1';
let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ KEY_LIFETIME_DAYS: 90 });
});
afterAll(() => t.close());

/** A member whose application waits, and the super administrator who will decide on it. */
async function pendingApplication() {
  const developer = t.client();
  const member = await registerMember(developer);
  await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
  const admin = t.client();
  const adminToken = await logInAdmin(admin);
  const approve = (body: Record<string, unknown>) =>
    admin.post(`${API}/credentials/${member.id}/approve`).set('X-CSRF-Token', adminToken).send(body);
  return { developer, member, admin, approve };
}

describe('key expiry', () => {
  it('a key approved to expire two seconds later works until then and is refused with credential_expired after', async () => {
    const { developer, member, admin, approve } = await pendingApplication();
    const expiresAt = new Date(Date.now() + 2000).toISOString();
    const approved = await approve({ expires_at: expiresAt }).expect(200);
    expect(approved.body.data.expires_at).toBe(expiresAt);

    const { apiid, apikey } = await claim(developer, member);
    // Scope-less: the key is accepted, so the refusal is about the scope, not the credential.
    await expectRefusal(t, () => openCall(t, '/open/addons', apiid, apikey), 403, 'scope_not_approved');
    expect((await developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential.expires_at).toBe(
      expiresAt,
    );
    const listed = (await admin.get(`${API}/credentials`).expect(200)).body.data.list as {
      member_id: number;
      expires_at: string | null;
    }[];
    expect(listed.find((c) => c.member_id === member.id)?.expires_at).toBe(expiresAt);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
    await expectRefusal(t, () => openCall(t, '/open/addons', apiid, apikey), 401, 'credential_expired');
  });

  it('past its expiry, a credential hands out no key: claim and rotation are refused, and the member applies again', async () => {
    const late = await pendingApplication();
    const lateExpiry = new Date(Date.now() + 1500).toISOString();
    await late.approve({ expires_at: lateExpiry }).expect(200);
    const active = await pendingApplication();
    const activeExpiry = new Date(Date.now() + 1500).toISOString();
    await active.approve({ expires_at: activeExpiry }).expect(200);
    await active.developer.post(`${API}/developer/claim`).set('X-CSRF-Token', active.member.token).send({}).expect(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(activeExpiry) - Date.now() + 50));

    const claim = await expectRefusal(
      t,
      () => late.developer.post(`${API}/developer/claim`).set('X-CSRF-Token', late.member.token).send({}),
      422,
      'credential_expired',
    );
    expect(claim.body.data).not.toHaveProperty('apikey');
    expect(claim.body.message).toContain('apply again');
    const rotation = await expectRefusal(
      t,
      () => active.developer.post(`${API}/developer/rotate`).set('X-CSRF-Token', active.member.token).send({}),
      422,
      'credential_expired',
    );
    expect(rotation.body.message).toContain('ask for an extension, or apply again');
    expect((await active.developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential.status).toBe(
      'active',
    );

    for (const { developer, member } of [late, active]) {
      const applied = await developer
        .post(`${API}/developer/credential`)
        .set('X-CSRF-Token', member.token)
        .send({})
        .expect(200);
      expect(applied.body.data).toMatchObject({ status: 'pending', apiid: null, expires_at: null });
    }
  });

  it('expires_in_days counts from the approval; without either KEY_LIFETIME_DAYS applies', async () => {
    const inDays = await pendingApplication();
    const before = Date.now();
    const approved = (await inDays.approve({ expires_in_days: 7 }).expect(200)).body.data.expires_at as string;
    expect(Date.parse(approved) - before).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(Date.parse(approved) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);

    const byDefault = await pendingApplication();
    const defaulted = (await byDefault.approve({}).expect(200)).body.data.expires_at as string;
    expect(Math.round((Date.parse(defaulted) - Date.now()) / 86_400_000)).toBe(90);

    const never = await pendingApplication();
    expect((await never.approve({ expires_at: null }).expect(200)).body.data.expires_at).toBeNull();
    await expectRefusal(t, () => byDefault.approve({ expires_at: null, expires_in_days: 3 }), 422, 'validation_failed');
  });

  it("the reviewers' listing says which expiry an approval without one gets, so a screen can offer it", async () => {
    const { admin } = await pendingApplication();
    expect((await admin.get(`${API}/credentials?status=pending`).expect(200)).body.data.key_lifetime_days).toBe(90);
    const forever = await startPlatform();
    try {
      const other = forever.client();
      await logInAdmin(other);
      expect((await other.get(`${API}/credentials`).expect(200)).body.data.key_lifetime_days).toBeNull();
    } finally {
      await forever.close();
    }
  });

  it('refuses an expiry in the past, both fields at once, and a malformed instant, changing nothing', async () => {
    const { approve, developer } = await pendingApplication();
    await expectRefusal(t, () => approve({ expires_at: '2020-01-01T00:00:00Z' }), 422, 'expiry_in_past');
    await expectRefusal(
      t,
      () => approve({ expires_at: new Date(Date.now() + 86_400_000).toISOString(), expires_in_days: 3 }),
      422,
      'validation_failed',
    );
    await expectRefusal(t, () => approve({ expires_at: 'tomorrow' }), 422, 'validation_failed');
    await expectRefusal(t, () => approve({ expires_in_days: 0 }), 422, 'validation_failed');
    expect((await developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential.status).toBe('pending');
  });

  it('refuses an expiry more than MAX_KEY_LIFETIME_DAYS (730) ahead, as an instant or in days, with expiry_too_far', async () => {
    const { approve, developer, member } = await pendingApplication();
    await expectRefusal(t, () => approve({ expires_at: '9999-12-31T00:00:00Z' }), 422, 'expiry_too_far');
    await expectRefusal(
      t,
      () => approve({ expires_at: new Date(Date.now() + 731 * 86_400_000).toISOString() }),
      422,
      'expiry_too_far',
    );
    await expectRefusal(t, () => approve({ expires_in_days: 731 }), 422, 'expiry_too_far');
    expect((await developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential.status).toBe('pending');
    await approve({ expires_in_days: 730 }).expect(200);
    await claim(developer, member);
    const ask = (body: Record<string, unknown>) =>
      developer
        .post(`${API}/developer/extension`)
        .set('X-CSRF-Token', member.token)
        .send({ reason: 'longer', ...body });
    await expectRefusal(t, () => ask({ expires_in_days: 1000 }), 422, 'expiry_too_far');
    await expectRefusal(t, () => ask({ expires_at: '9999-12-31T00:00:00Z' }), 422, 'expiry_too_far');
  });

  it('a rotation keeps the expiry, and the auditor history shows it', async () => {
    const p = await activePartner(t);
    const expiresAt = (await p.developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential
      .expires_at as string;
    expect(expiresAt).toEqual(expect.any(String));
    const newKey = await rotate(p);
    await openCall(t, '/open/addons', p.apiid, newKey).expect(200);
    expect((await p.developer.get(`${API}/developer/dashboard`).expect(200)).body.data.credential.expires_at).toBe(
      expiresAt,
    );

    const history = (await p.admin.get(`${API}/credentials/${p.member.id}/history`).expect(200)).body.data.events as {
      type: string;
      data: Record<string, unknown>;
    }[];
    expect(history.find((e) => e.type === 'CredentialApproved')?.data.expires_at).toBe(expiresAt);
  });

  it('a member asks for a later expiry; the administrator rejects with a reason, then approves the next request, and the key lives on', async () => {
    const { developer, member, admin, approve } = await pendingApplication();
    const soon = new Date(Date.now() + 2500).toISOString();
    await approve({ expires_at: soon }).expect(200);
    const { apiid, apikey } = await claim(developer, member);
    const adminToken = await logInAdmin(admin);
    const ask = (body: Record<string, unknown>) =>
      developer.post(`${API}/developer/extension`).set('X-CSRF-Token', member.token).send(body);

    await expectRefusal(t, () => ask({ expires_in_days: 30 }), 422, 'validation_failed');
    const asked = await ask({ expires_in_days: 30, reason: 'the project runs another month' }).expect(200);
    expect(asked.body.data.extension).toMatchObject({
      status: 'pending',
      reason: 'the project runs another month',
      reviewed_at: null,
    });
    await expectRefusal(t, () => ask({ expires_in_days: 60, reason: 'again' }), 422, 'extension_already_requested');
    const rejected = await admin
      .post(`${API}/credentials/${member.id}/extension/reject`)
      .set('X-CSRF-Token', adminToken)
      .send({ reason: 'too long' })
      .expect(200);
    expect(rejected.body.data.extension).toMatchObject({ status: 'rejected', reject_reason: 'too long' });
    expect(rejected.body.message).toBe(`${member.username}'s extension rejected: the key keeps its expiry`);
    expect(rejected.body.data.expires_at).toBe(soon);

    const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await ask({ expires_at: later, reason: 'one more week' }).expect(200);
    const approved = await admin
      .post(`${API}/credentials/${member.id}/extension/approve`)
      .set('X-CSRF-Token', adminToken)
      .send({})
      .expect(200);
    expect(approved.body.data).toMatchObject({
      expires_at: later,
      extension: { status: 'approved', expires_at: later },
    });
    // An extension decides the key's expiry, not an application: the message says which, and until when.
    expect(approved.body.message).toBe(`${member.username}'s extension approved: the key now expires at ${later}`);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 50));
    await expectRefusal(t, () => openCall(t, '/open/addons', apiid, apikey), 403, 'scope_not_approved');
    const history = (await admin.get(`${API}/credentials/${member.id}/history`).expect(200)).body.data.events as {
      type: string;
      reason?: string;
      actor: { kind: string };
    }[];
    expect(history.filter((e) => e.type.startsWith('Extension')).map((e) => [e.type, e.actor.kind, e.reason])).toEqual([
      ['ExtensionRequested', 'member', 'the project runs another month'],
      ['ExtensionRejected', 'admin', 'too long'],
      ['ExtensionRequested', 'member', 'one more week'],
      ['ExtensionApproved', 'admin', undefined],
    ]);
  });
});
