import { accessPlatform, adminBrowser, groupWithAdmin } from '../access/http/access-clients';
import { registerMember } from '../support/platform';

/** Approval rules: what an administrator defines is approved at once, with the rule as actor. */

const API = '/api/v1';
const p = accessPlatform();

async function apply(email: string) {
  const developer = p.t.client();
  const member = await registerMember(developer, { email });
  const res = await developer
    .post(`${API}/developer/credential`)
    .set('X-CSRF-Token', member.token)
    .send({})
    .expect(200);
  return { developer, member, res };
}

it('a rule for an e-mail domain approves a matching application at once, as its actor, and no other', async () => {
  const rule = await p.root
    .post('/approval-rules', {
      name: 'Acme partners',
      applies_to: 'credential',
      who: 'email_domain',
      email_domain: 'Acme.Example',
      expires_in_days: 30,
    })
    .expect(200);
  expect(rule.body.data).toMatchObject({ name: 'Acme partners', email_domain: 'acme.example', enabled: true });
  const id = rule.body.data.id as string;

  const matching = await apply('dev@acme.example');
  expect(matching.res.body.data).toMatchObject({ status: 'approved', approved_by_rule: { id, name: 'Acme partners' } });
  expect(matching.res.body.message).toContain('approved at once by the rule "Acme partners"');
  const days = (Date.parse(matching.res.body.data.expires_at) - Date.now()) / 86_400_000;
  expect(Math.round(days)).toBe(30);
  const events = (await p.t.allEvents()).filter((e) => e.stream === `credential-${matching.member.id}`);
  expect(events.map((e) => [e.type, e.metadata.actor])).toEqual([
    ['CredentialApplied', { kind: 'member', id: matching.member.id }],
    ['CredentialApproved', { kind: 'rule', id }],
  ]);
  const history = await p.root.get(`/credentials/${matching.member.id}/history`).expect(200);
  expect(JSON.stringify(history.body.data)).toContain(
    `approved the application at once by the approval rule \\"Acme partners\\" (${id})`,
  );
  // The member claims at once.
  await matching.developer
    .post(`${API}/developer/claim`)
    .set('X-CSRF-Token', matching.member.token)
    .send({})
    .expect(200);

  const other = await apply('dev@acme.example.org');
  expect(other.res.body.data.status).toBe('pending');

  const disabled = await p.root.post(`/approval-rules/${id}/disable`).expect(200);
  expect(disabled.body.data).toMatchObject({ enabled: false, disabled_at: expect.any(String) });
  expect((await apply('two@acme.example')).res.body.data.status).toBe('pending');
  await p.refused(() => p.root.post(`/approval-rules/${id}/disable`), 422, 'approval_rule_disabled');
});

it('a scope rule approves requests of its scope at once, and leaves the others pending', async () => {
  const rule = await p.root
    .post('/approval-rules', { name: 'Catalogue readers', applies_to: 'scope', scope: 'addons.read', who: 'everyone' })
    .expect(200);
  const developer = p.t.client();
  const member = await registerMember(developer);
  await developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send({}).expect(200);
  await p.root.post(`/credentials/${member.id}/approve`).expect(200);
  await developer.post(`${API}/developer/claim`).set('X-CSRF-Token', member.token).send({}).expect(200);
  const res = await developer
    .post(`${API}/developer/scopes`)
    .set('X-CSRF-Token', member.token)
    .send({ scopes: ['addons.read', 'member-groups.read'], reason: 'sync' })
    .expect(200);
  const status = Object.fromEntries(
    (res.body.data.scopes as { name: string; status: string }[]).map((s) => [s.name, s.status]),
  );
  expect(status).toEqual({ 'addons.read': 'approved', 'member-groups.read': 'pending' });
  const approved = (await p.t.allEvents()).find((e) => e.type === 'ScopeApproved' && e.data.member_id === member.id);
  expect(approved?.metadata.actor).toEqual({ kind: 'rule', id: rule.body.data.id });
  await p.root.post(`/approval-rules/${rule.body.data.id}/disable`).expect(200);
});

it('lists rules a page at a time, oldest first', async () => {
  for (const name of ['Page one', 'Page two'])
    await p.root
      .post('/approval-rules', { name, applies_to: 'credential', who: 'member_group', member_group_id: 1 })
      .expect(200);
  const first = await p.root.get('/approval-rules?limit=2').expect(200);
  expect(first.body.data.list).toHaveLength(2);
  expect(first.body.data.next).toEqual(expect.any(String));
  const rest = await p.root
    .get(`/approval-rules?limit=200&after=${encodeURIComponent(first.body.data.next)}`)
    .expect(200);
  const names = [...first.body.data.list, ...rest.body.data.list].map((r: { name: string }) => r.name);
  expect(names.slice(-2)).toEqual(['Page one', 'Page two']);
  expect(rest.body.data.next).toBeNull();
});

describe('refusals change nothing', () => {
  it.each([
    ['a scope rule without its scope', { name: 'x', applies_to: 'scope', who: 'everyone' }, 'invalid_rule_scope'],
    ['an unknown scope', { name: 'x', applies_to: 'scope', scope: 'nope', who: 'everyone' }, 'invalid_rule_scope'],
    [
      'a credential rule with a scope',
      { name: 'x', applies_to: 'credential', scope: 'addons.read', who: 'everyone' },
      'invalid_rule_scope',
    ],
    [
      'email_domain without the domain',
      { name: 'x', applies_to: 'credential', who: 'email_domain' },
      'invalid_rule_who',
    ],
    [
      'a domain with @',
      { name: 'x', applies_to: 'credential', who: 'email_domain', email_domain: '@acme.example' },
      'invalid_rule_who',
    ],
    [
      'a group for everyone',
      { name: 'x', applies_to: 'credential', who: 'everyone', member_group_id: 1 },
      'invalid_rule_who',
    ],
    ['an empty name', { name: '  ', applies_to: 'credential', who: 'everyone' }, 'invalid_rule_name'],
    [
      'an expiry on a scope rule',
      { name: 'x', applies_to: 'scope', scope: 'addons.read', who: 'everyone', expires_in_days: 3 },
      'invalid_rule_expiry',
    ],
    ['an unknown who', { name: 'x', applies_to: 'credential', who: 'friends' }, 'validation_failed'],
    [
      'an expiry beyond MAX_KEY_LIFETIME_DAYS',
      { name: 'x', applies_to: 'credential', who: 'everyone', expires_in_days: 9999 },
      'validation_failed',
    ],
  ])('%s is refused', async (_, body, error) => {
    await p.refused(() => p.root.post('/approval-rules', body), 422, error);
  });

  it('a member group that does not exist: 404', async () => {
    await p.refused(
      () =>
        p.root.post('/approval-rules', {
          name: 'x',
          applies_to: 'credential',
          who: 'member_group',
          member_group_id: 99,
        }),
      404,
      'member_group_not_found',
    );
  });

  it('an unknown rule, a malformed id, a wrong CSRF token, and an administrator without credential.review', async () => {
    await p.refused(
      () => p.root.post('/approval-rules/00000000-0000-4000-8000-000000000000/disable'),
      404,
      'approval_rule_not_found',
    );
    await p.refused(() => p.root.post('/approval-rules/rule-1/disable'), 422, 'invalid_path_parameter');
    await p.refused(
      () =>
        p.root.client
          .post(`${API}/approval-rules`)
          .set('X-CSRF-Token', 'stale')
          .send({ name: 'x', applies_to: 'credential', who: 'everyone' }),
      419,
      'csrf_token_invalid',
    );
    const viewer = await adminBrowser(p.t, await groupWithAdmin(p.root, ['addon.view']));
    await p.refused(
      () => viewer.post('/approval-rules', { name: 'x', applies_to: 'credential', who: 'everyone' }),
      403,
      'permission_denied',
    );
    await p.refused(() => viewer.get('/approval-rules'), 403, 'permission_denied');
  });
});
