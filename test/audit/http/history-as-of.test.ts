import { credentialStream } from '../../../src/credential/decider';
import { approvedMember } from '../../support/credentials';
import { expectRefusal } from '../../support/platform';
import { stopTheClock } from '../../support/still-clock';
import { API, auditTrail } from '../support/audit-trail';

// A credential's history as it stood at an instant: what an auditor replays.

const trail = auditTrail();
const { history } = trail;
// A test that stops the clock has it running again after it, passed or failed.
afterEach(() => jest.useRealTimers());

/** Waits until the clock has moved past the last event's millisecond, so that the next event is strictly later. */
async function nextMillisecond(): Promise<void> {
  const last = (await trail.t.allEvents()).at(-1)!.metadata.time;
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
    const { developer, member, admin, adminToken } = await approvedMember(trail.t);
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
    const { developer, member } = await approvedMember(trail.t, () => ({
      expires_at: new Date(Date.now() + 1500).toISOString(),
    }));
    await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
    const expiresAt = (await history(member.id).expect(200)).body.data.events.at(-1).data.expires_at as string;
    // The clock, which the service in this process reads too, moved past the expiry rather than waited for.
    stopTheClock();
    jest.setSystemTime(Date.parse(expiresAt) + 10);
    const justBefore = new Date(Date.parse(expiresAt) - 1).toISOString();
    const atExpiry = (await history(member.id, expiresAt).expect(200)).body.data.state;
    const before = (await history(member.id, justBefore).expect(200)).body.data.state;
    expect(before).toMatchObject({ credential: { status: 'active' }, expired: false });
    expect(atExpiry).toMatchObject({ credential: { status: 'active', expires_at: expiresAt }, expired: true });
  });

  it('refuses an as_of that is not an ISO 8601 time with a zone', async () => {
    const { member } = await approvedMember(trail.t);
    for (const bad of ['yesterday', '2026-11-22T04:18:52', '2026-13-01T00:00:00Z', '1700000000']) {
      const res = await expectRefusal(trail.t, () => history(member.id, bad), 422, 'validation_failed');
      expect(res.body.data.issues).toEqual([{ path: 'as_of', message: expect.stringContaining('ISO 8601') }]);
    }
  });
});

describe('GET /credentials/{member_id}/history?as_of= in the future', () => {
  it('is refused with 422 naming as_of: the history holds what has happened', async () => {
    const { member } = await approvedMember(trail.t);
    const res = await expectRefusal(
      trail.t,
      () => history(member.id, '2099-01-01T00:00:00Z'),
      422,
      'validation_failed',
    );
    expect(res.body.data.issues).toEqual([{ path: 'as_of', message: expect.stringContaining('in the future') }]);
    await history(member.id, new Date().toISOString()).expect(200);
  });
});
