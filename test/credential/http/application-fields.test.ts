import { accessPlatform } from '../../access/http/access-clients';
import { registerMember } from '../../support/platform';

/** An application says who asks: purpose, company and website, shown to the reviewers and the member. */

const API = '/api/v1';
const p = accessPlatform();

it('stores what the application says in its event, and shows it in the queue and on the dashboard', async () => {
  const developer = p.t.client();
  const member = await registerMember(developer);
  const said = { purpose: '  Sync our catalogue\nnightly  ', company: 'Acme GmbH', website: 'https://acme.example/' };
  const applied = await developer
    .post(`${API}/developer/credential`)
    .set('X-CSRF-Token', member.token)
    .send(said)
    .expect(200);
  expect(applied.body.data).toMatchObject({
    status: 'pending',
    purpose: 'Sync our catalogue\nnightly',
    company: 'Acme GmbH',
    website: 'https://acme.example/',
    approved_by_rule: null,
  });
  const event = (await p.t.allEvents()).find((e) => e.type === 'CredentialApplied' && e.data.member_id === member.id);
  expect(event?.data).toMatchObject({ purpose: 'Sync our catalogue\nnightly', company: 'Acme GmbH' });
  const queue = await p.root.get(`/credentials?q=${member.username}`).expect(200);
  expect(queue.body.data.list[0]).toMatchObject({ company: 'Acme GmbH', website: 'https://acme.example/' });
  const history = await p.root.get(`/credentials/${member.id}/history`).expect(200);
  expect(JSON.stringify(history.body.data)).toContain(
    'applied for API credentials for Acme GmbH (https://acme.example/)',
  );
});

it('the empty body of the specification still applies, saying nothing', async () => {
  const developer = p.t.client();
  const member = await registerMember(developer);
  const res = await developer
    .post(`${API}/developer/credential`)
    .set('X-CSRF-Token', member.token)
    .send({})
    .expect(200);
  expect(res.body.data).toMatchObject({ status: 'pending', purpose: null, company: null, website: null });
});

it.each([
  ['a purpose over 500 characters', { purpose: 'x'.repeat(501) }, 'purpose'],
  ['a company over 100 characters', { company: 'x'.repeat(101) }, 'company'],
  ['a website that is no URL', { website: 'acme dot example' }, 'website'],
  ['a website of another scheme', { website: 'javascript:alert(1)' }, 'website'],
  ['an empty company', { company: '   ' }, 'company'],
  ['a purpose with a bidirectional override', { purpose: 'sync \u202e evil' }, 'purpose'],
  ['an unknown field', { phone: '123' }, ''],
])('%s is refused, naming the field, and nothing is applied', async (_, body, field) => {
  const developer = p.t.client();
  const member = await registerMember(developer);
  const res = await p.refused(
    () => developer.post(`${API}/developer/credential`).set('X-CSRF-Token', member.token).send(body),
    422,
    'validation_failed',
  );
  if (field) expect((res.body.data.issues ?? []).map((i) => i.path)).toContain(field);
  const dashboard = await developer.get(`${API}/developer/dashboard`).expect(200);
  expect(JSON.stringify(dashboard.body.data)).toContain('"status":"none"');
});
