import {
  active,
  admin,
  API,
  approvedOne,
  expectIssue,
  expectRefusal,
  fixtures,
  granted,
  LONG_REASON,
  pending,
  REASON,
  review,
  send,
  useCredentialStates,
} from './credential-states';

/** An administrator's decisions on an application that cannot be taken: its state, a missing member or reason, a queue filter. */

useCredentialStates();

describe('POST /credentials/{member_id}/approve and /reject', () => {
  it.each(['fresh', 'approved', 'active'] as const)(
    'refuse an application that is not pending (%s) with 422 credential_not_pending',
    async (state) => {
      const { id } = fixtures[state];
      await expectRefusal(() => review(`/credentials/${id}/approve`), 422, 'credential_not_pending');
      await expectRefusal(() => review(`/credentials/${id}/reject`, { reason: REASON }), 422, 'credential_not_pending');
    },
  );
});

describe('decisions about a member who does not exist', () => {
  it.each([
    ['approve', '/credentials/999999/approve', {}],
    ['reject', '/credentials/999999/reject', { reason: REASON }],
    ['revoke', '/credentials/999999/revoke', { reason: REASON }],
    ['approve a scope', '/credentials/999999/scopes/addons.read/approve', {}],
    ['approve an extension', '/credentials/999999/extension/approve', {}],
    ['reject an extension', '/credentials/999999/extension/reject', { reason: REASON }],
  ])('%s answers 404 member_not_found, not a hint to apply first', async (_name, path, body) => {
    const res = await expectRefusal(() => review(path, body), 404, 'member_not_found');
    expect(res.body.message).not.toMatch(/apply/);
  });
});

describe('POST /credentials/{member_id}/revoke', () => {
  it.each(['fresh', 'pending'] as const)(
    'refuses a credential that is neither approved nor active (%s) with 422 credential_not_active',
    async (state) => {
      await expectRefusal(
        () => review(`/credentials/${fixtures[state].id}/revoke`, { reason: REASON }),
        422,
        'credential_not_active',
      );
    },
  );

  it('withdraws an approval before the claim: the revoke needs a reason, then the claim fails', async () => {
    const mistake = await approvedOne();
    await expectRefusal(() => review(`/credentials/${mistake.id}/revoke`, {}), 422, 'validation_failed');
    const revoked = await review(`/credentials/${mistake.id}/revoke`, { reason: 'approved by mistake' }).expect(200);
    expect(revoked.body.data).toMatchObject({ status: 'revoked', revoke_reason: 'approved by mistake' });
    await expectRefusal(() => send(mistake, '/developer/claim'), 422, 'credential_not_approved');
  });
});

describe('decisions that need a reason', () => {
  // Each on a member whose state admits the decision, so that the reason is the only thing wrong.
  const decisions: [string, () => string][] = [
    ['reject an application', () => `/credentials/${pending.id}/reject`],
    ['revoke a credential', () => `/credentials/${granted.id}/revoke`],
    ['reject a scope', () => `/credentials/${active.id}/scopes/member-groups.read/reject`],
    ['revoke a scope', () => `/credentials/${granted.id}/scopes/addons.read/revoke`],
  ];
  const reasons: [string, object][] = [
    ['no reason', {}],
    ['a blank reason', { reason: '   ' }],
    ['a reason of zero-width spaces only', { reason: '\u200b\u200b\u200b' }],
    ['a reason of NUL characters only', { reason: '\u0000\u0000' }],
    ['a 501-character reason', { reason: LONG_REASON }],
    ['a reason that is not a string', { reason: 42 }],
  ];
  const cases = decisions.flatMap(([decision, path]) =>
    reasons.map(([label, body]) => [decision, label, path, body] as const),
  );

  it.each(cases)('%s: refuses %s with 422 naming reason', async (_decision, _label, path, body) => {
    const res = await expectRefusal(() => review(path(), body), 422, 'validation_failed');
    expectIssue(res, 'reason');
  });
});

describe('status filters of the review queues', () => {
  it.each([
    ['/credentials?status=bogus'],
    ['/scope-requests?status=bogus'],
    // A credential status is not a scope status.
    ['/scope-requests?status=active'],
  ])('GET %s is 422 naming status', async (path) => {
    const res = await expectRefusal(() => admin.get(`${API}${path}`), 422, 'validation_failed');
    expectIssue(res, 'status');
  });
});
