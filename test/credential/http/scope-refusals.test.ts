import {
  active,
  approved,
  expectIssue,
  expectRefusal,
  fixtures,
  granted,
  LONG_REASON,
  REASON,
  review,
  scopeRequestsOf,
  send,
  useCredentialStates,
} from './credential-states';

/** Requesting scopes, and deciding on them, when that cannot be done. */

useCredentialStates();

describe('POST /developer/scopes', () => {
  it.each(['fresh', 'pending', 'approved'] as const)(
    'refuses a request before the claim (%s) with 422 credential_not_active',
    async (state) => {
      await expectRefusal(
        () => send(fixtures[state], '/developer/scopes', { scopes: ['addons.read'], reason: REASON }),
        422,
        'credential_not_active',
      );
    },
  );

  // Every body names addons.read, which alone would be granted: the whole request must be refused.
  const cases: [string, object, string, string | null][] = [
    ['an unknown scope', { scopes: ['addons.read', 'bogus.read'], reason: REASON }, 'unknown_scope', 'scopes'],
    ['a duplicate name', { scopes: ['addons.read', 'addons.read'], reason: REASON }, 'duplicate_scope', 'scopes'],
    [
      'an already pending scope',
      { scopes: ['addons.read', 'member-groups.read'], reason: REASON },
      'scope_already_requested',
      null,
    ],
    ['a reason over 500 characters', { scopes: ['addons.read'], reason: LONG_REASON }, 'validation_failed', 'reason'],
    ['a missing reason', { scopes: ['addons.read'] }, 'validation_failed', 'reason'],
    ['a blank reason', { scopes: ['addons.read'], reason: ' ' }, 'validation_failed', 'reason'],
    ['a name that is not a string', { scopes: ['addons.read', 7], reason: REASON }, 'validation_failed', 'scopes.1'],
  ];
  it.each(cases)('refuses the whole request for %s', async (_name, body, error, issue) => {
    const res = await expectRefusal(() => send(active, '/developer/scopes', body), 422, error);
    if (issue) expectIssue(res, issue);
    expect(await scopeRequestsOf(active, 'addons.read')).toEqual([]);
  });

  it('refuses an empty list with 422 naming scopes', async () => {
    const res = await expectRefusal(
      () => send(active, '/developer/scopes', { scopes: [], reason: REASON }),
      422,
      'validation_failed',
    );
    expectIssue(res, 'scopes');
  });

  it('refuses an already approved scope with 422 scope_already_requested', async () => {
    await expectRefusal(
      () => send(granted, '/developer/scopes', { scopes: ['member-groups.read', 'addons.read'], reason: REASON }),
      422,
      'scope_already_requested',
    );
    expect(await scopeRequestsOf(granted, 'member-groups.read')).toEqual([]);
  });

  it('refuses malformed JSON with 422 malformed_json', async () => {
    await expectRefusal(
      () => send(active, '/developer/scopes').set('Content-Type', 'application/json').send('{"scopes": ["addons.read"'),
      422,
      'malformed_json',
    );
  });
});

describe('scope decisions', () => {
  it('refuses to approve or reject a scope that was never requested with 422 scope_not_pending', async () => {
    await expectRefusal(() => review(`/credentials/${active.id}/scopes/addons.read/approve`), 422, 'scope_not_pending');
    await expectRefusal(
      () => review(`/credentials/${active.id}/scopes/addons.read/reject`, { reason: REASON }),
      422,
      'scope_not_pending',
    );
  });

  it('refuses to approve a scope that is already approved with 422 scope_not_pending', async () => {
    await expectRefusal(
      () => review(`/credentials/${granted.id}/scopes/addons.read/approve`),
      422,
      'scope_not_pending',
    );
  });

  it('refuses to revoke a scope that is not approved with 422 scope_not_approved', async () => {
    const revoke = (scope: string) => () =>
      review(`/credentials/${active.id}/scopes/${scope}/revoke`, { reason: REASON });
    await expectRefusal(revoke('member-groups.read'), 422, 'scope_not_approved');
    await expectRefusal(revoke('addons.read'), 422, 'scope_not_approved');
  });

  it('refuses any scope decision on a credential that is not active with 422 credential_not_active', async () => {
    await expectRefusal(
      () => review(`/credentials/${approved.id}/scopes/addons.read/approve`),
      422,
      'credential_not_active',
    );
  });
});
