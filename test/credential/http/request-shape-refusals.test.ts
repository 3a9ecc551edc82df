import {
  active,
  approved,
  expectIssue,
  expectRefusal,
  granted,
  pending,
  REASON,
  review,
  send,
  useCredentialStates,
} from './credential-states';

/** Credential requests whose body or address is wrong: extra properties, bad path parameters. */

useCredentialStates();

describe('extra body properties', () => {
  const cases: [string, () => string, object][] = [
    ['approve an application', () => `/credentials/${pending.id}/approve`, { note: 'ok' }],
    ['reject an application', () => `/credentials/${pending.id}/reject`, { reason: REASON, note: 'ok' }],
    ['revoke a credential', () => `/credentials/${granted.id}/revoke`, { reason: REASON, note: 'ok' }],
    ['approve a scope', () => `/credentials/${active.id}/scopes/member-groups.read/approve`, { note: 'ok' }],
    [
      'reject a scope',
      () => `/credentials/${active.id}/scopes/member-groups.read/reject`,
      { reason: REASON, note: 'ok' },
    ],
    ['revoke a scope', () => `/credentials/${granted.id}/scopes/addons.read/revoke`, { reason: REASON, note: 'ok' }],
  ];
  it.each(cases)('%s: refused with 422', async (_name, path, body) => {
    const res = await expectRefusal(() => review(path(), body), 422, 'validation_failed');
    expectIssue(res, '(body)');
  });

  it.each([
    ['claim', '/developer/claim', () => approved, { apiid: 'ak_mine' }],
    ['rotate', '/developer/rotate', () => granted, { grace_seconds: 10, keep: true }],
    ['scopes', '/developer/scopes', () => active, { scopes: ['addons.read'], reason: REASON, urgent: true }],
  ] as const)('POST /developer/%s: refused with 422', async (_name, path, developer, body) => {
    await expectRefusal(() => send(developer(), path, body), 422, 'validation_failed');
  });
});

describe('path parameters', () => {
  const writes: [string, (memberId: string, scope?: string) => string, object][] = [
    ['approve', (m) => `/credentials/${m}/approve`, {}],
    ['reject', (m) => `/credentials/${m}/reject`, { reason: REASON }],
    ['revoke', (m) => `/credentials/${m}/revoke`, { reason: REASON }],
    ['approve scope', (m, s = 'addons.read') => `/credentials/${m}/scopes/${s}/approve`, {}],
    ['reject scope', (m, s = 'addons.read') => `/credentials/${m}/scopes/${s}/reject`, { reason: REASON }],
    ['revoke scope', (m, s = 'addons.read') => `/credentials/${m}/scopes/${s}/revoke`, { reason: REASON }],
  ];
  const badIds = ['abc', '0', '-1', '1.5'];

  it.each(writes.flatMap(([name, path, body]) => badIds.map((id) => [name, id, path, body] as const)))(
    '%s: member_id %s is 422 invalid_path_parameter',
    async (_name, id, path, body) => {
      const res = await expectRefusal(() => review(path(id), body), 422, 'invalid_path_parameter');
      expectIssue(res, 'member_id');
    },
  );

  const scopeWrites = writes.filter(([name]) => name.endsWith('scope'));
  it.each(
    scopeWrites.flatMap(([name, path, body]) =>
      ['bogus.read', 'toString'].map((scope) => [name, scope, path, body] as const),
    ),
  )('%s: unknown scope %s is 422 invalid_path_parameter', async (_name, scope, path, body) => {
    const res = await expectRefusal(() => review(path(String(active.id), scope), body), 422, 'invalid_path_parameter');
    expectIssue(res, 'scope');
  });
});
