import request from 'supertest';
import {
  Answer,
  expectRefusal as refusal,
  logInAdmin,
  registerMember,
  startPlatform,
  TestPlatform,
} from '../../support/platform';

/**
 * The unhappy paths of the credential endpoints. Members in each credential state are set up once:
 * every request against them is refused and appends nothing, so the tests cannot disturb each other.
 */

const API = '/api/v1';
const REASON = 'sync the catalogue to our portal';
const LONG_REASON = 'x'.repeat(501);

interface Developer {
  client: request.Agent;
  id: number;
  token: string;
}

let t: TestPlatform;
let admin: request.Agent;
let adminToken: string;

/** Members by the state of their credential. */
let fresh: Developer; // never applied
let pending: Developer; // applied, not reviewed
let approved: Developer; // approved, not claimed
let active: Developer; // claimed; member-groups.read pending, addons.read never requested
let granted: Developer; // claimed; addons.read approved
let fixtures: Record<'fresh' | 'pending' | 'approved' | 'active' | 'granted', Developer>;

const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

function send(developer: Developer, path: string, body: string | object = {}) {
  return developer.client.post(`${API}${path}`).set('X-CSRF-Token', developer.token).send(body);
}

function review(path: string, body: object = {}) {
  return admin.post(`${API}${path}`).set('X-CSRF-Token', adminToken).send(body);
}

async function registered(): Promise<Developer> {
  const client = t.client();
  const member = await registerMember(client);
  return { client, id: member.id, token: member.token };
}

async function applied(): Promise<Developer> {
  const developer = await registered();
  await send(developer, '/developer/credential').expect(200);
  return developer;
}

async function approvedOne(): Promise<Developer> {
  const developer = await applied();
  await review(`/credentials/${developer.id}/approve`).expect(200);
  return developer;
}

async function claimed(): Promise<Developer & { apiid: string; apikey: string }> {
  const developer = await approvedOne();
  const res = await send(developer, '/developer/claim').expect(200);
  return { ...developer, apiid: res.body.data.apiid, apikey: res.body.data.apikey };
}

async function scopeRequestsOf(developer: Developer, scope: string) {
  return (await t.allEvents()).filter(
    (e) => e.stream === `credential-${developer.id}` && e.type === 'ScopeRequested' && e.data.scope === scope,
  );
}

function expectIssue(res: Answer, path: string): void {
  expect(res.body.data.issues).toContainEqual({ path, message: expect.any(String) });
}

beforeAll(async () => {
  t = await startPlatform();
  admin = t.client();
  adminToken = await logInAdmin(admin);
  [fresh, pending, approved, active, granted] = await Promise.all([
    registered(),
    applied(),
    approvedOne(),
    claimed(),
    claimed(),
  ]);
  await send(active, '/developer/scopes', { scopes: ['member-groups.read'], reason: REASON }).expect(200);
  await send(granted, '/developer/scopes', { scopes: ['addons.read'], reason: REASON }).expect(200);
  await review(`/credentials/${granted.id}/scopes/addons.read/approve`).expect(200);
  fixtures = { fresh, pending, approved, active, granted };
});
afterAll(() => t.close());

describe('POST /developer/credential', () => {
  it.each(['pending', 'approved', 'active'] as const)(
    'refuses to apply again while the application is %s with 422 credential_already_applied',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/credential'), 422, 'credential_already_applied');
    },
  );

  it('refuses a property in its empty body with 422', async () => {
    const res = await expectRefusal(
      () => send(fresh, '/developer/credential', { scopes: ['addons.read'] }),
      422,
      'validation_failed',
    );
    expectIssue(res, '(body)');
  });

  it('refuses malformed JSON with 422 malformed_json', async () => {
    await expectRefusal(
      () => send(fresh, '/developer/credential').set('Content-Type', 'application/json').send('{"note":'),
      422,
      'malformed_json',
    );
  });

  it('refuses a text/plain body with 415', async () => {
    await expectRefusal(
      () => send(fresh, '/developer/credential').set('Content-Type', 'text/plain').send('{}'),
      415,
      'unsupported_media_type',
    );
  });

  const declared = (developer: Developer, charset: string) =>
    developer.client
      .post(`${API}/developer/credential`)
      .set('X-CSRF-Token', developer.token)
      .set('Content-Type', `application/json; charset=${charset}`)
      .send('{}');

  it('refuses a JSON body declared in a charset other than UTF-8 with 415, and takes utf-8 in any case', async () => {
    for (const charset of ['utf-16', 'latin1', 'bogus-xyz']) {
      const res = await expectRefusal(() => declared(fresh, charset), 415, 'unsupported_media_type');
      expect(res.body.message).toContain('UTF-8');
    }
    await declared(await registered(), 'UTF-8').expect(200);
  });

  it('accepts a POST with no body at all, as fetch and most HTTP clients send it: Content-Length 0, no type', async () => {
    const developer = await registered();
    const bodyless = (path: string) =>
      developer.client.post(`${API}${path}`).set('X-CSRF-Token', developer.token).set('Content-Length', '0');
    const res = await bodyless('/developer/credential').expect(200);
    expect(res.body.data.status).toBe('pending');
    // An endpoint that needs a body still says so.
    await expectRefusal(() => bodyless('/developer/scopes'), 415, 'unsupported_media_type');
  });
});

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

describe('POST /developer/claim', () => {
  it('refuses a second claim with 422 credential_already_claimed', async () => {
    const developer = await approvedOne();
    await send(developer, '/developer/claim').expect(200);
    await expectRefusal(() => send(developer, '/developer/claim'), 422, 'credential_already_claimed');
  });

  it.each(['fresh', 'pending'] as const)(
    'refuses a claim before approval (%s) with 422 credential_not_approved',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/claim'), 422, 'credential_not_approved');
    },
  );

  it('tells a member who never applied what to do next, and the route that does it', async () => {
    const refused = await expectRefusal(() => send(fixtures.fresh, '/developer/claim'), 422, 'credential_not_approved');
    expect(refused.body.message).toBe(
      'cannot claim a credential whose status is none: apply first (apply with POST /developer/credential)',
    );
  });
});

describe('POST /developer/rotate', () => {
  it.each(['fresh', 'pending', 'approved'] as const)(
    'refuses a rotation before the claim (%s) with 422 credential_not_active',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/rotate'), 422, 'credential_not_active');
    },
  );

  it.each([[-1], [86_401], [1.5], ['10'], [null]])(
    'refuses grace_seconds %p with 422 naming grace_seconds',
    async (grace_seconds) => {
      const res = await expectRefusal(
        () => send(granted, '/developer/rotate', { grace_seconds }),
        422,
        'validation_failed',
      );
      expectIssue(res, 'grace_seconds');
    },
  );
});

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

describe('applying again', () => {
  it('after a rejection: the application is pending again', async () => {
    const developer = await applied();
    await review(`/credentials/${developer.id}/reject`, { reason: 'tell us more about the integration' }).expect(200);
    const res = await send(developer, '/developer/credential').expect(200);
    expect(res.body.data).toMatchObject({ status: 'pending', reject_reason: null, reviewed_at: null });
  });

  it('after a revocation: approved and claimed again, under a new API id and with no scope carried over', async () => {
    const developer = await claimed();
    await send(developer, '/developer/scopes', {
      scopes: ['addons.read', 'member-groups.read'],
      reason: REASON,
    }).expect(200);
    await review(`/credentials/${developer.id}/scopes/addons.read/approve`).expect(200);
    await review(`/credentials/${developer.id}/revoke`, { reason: 'the partner contract ended' }).expect(200);

    await send(developer, '/developer/credential').expect(200);
    await review(`/credentials/${developer.id}/approve`).expect(200);
    const reclaimed = await send(developer, '/developer/claim').expect(200);
    const { apiid, apikey } = reclaimed.body.data as { apiid: string; apikey: string };
    expect(apiid).toMatch(/^ak_[a-z2-7]{20}$/);
    expect(apiid).not.toBe(developer.apiid);

    const scopes = await developer.client.get(`${API}/developer/scopes`).expect(200);
    expect(scopes.body.data.list.length).toBeGreaterThan(0);
    for (const scope of scopes.body.data.list) expect(scope).toMatchObject({ status: 'none' });

    const partner = (id: string, key: string) => () =>
      t.client().get(`${API}/open/addons`).set('X-API-ID', id).set('X-API-Key', key);
    await expectRefusal(partner(apiid, apikey), 403, 'scope_not_approved');
    await expectRefusal(partner(developer.apiid, developer.apikey), 401, 'api_credentials_invalid');
  });
});
