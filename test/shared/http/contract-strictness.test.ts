import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { superAdmin } from '../../support/addons';
import { csrfOf, registerMember, startPlatform, TestPlatform } from '../../support/platform';

/**
 * A client that validates its requests by the served contract (JSON Schema 2020-12) must be
 * refused nothing the contract let through: each input the server refuses, the contract refuses.
 */
let t: TestPlatform;
let contract: object;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

beforeAll(async () => {
  t = await startPlatform();
  const admin = await superAdmin(t);
  contract = (await admin.client.get('/api/v1/openapi').expect(200)).body;
  ajv.addSchema(contract, 'contract');
});
afterAll(() => t.close());

/** Whether the contract lets a client send `body` to the operation. */
function contractAccepts(method: string, path: string, body: unknown): boolean {
  const pointer = ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'].map((p) =>
    p.replace(/~/g, '~0').replace(/\//g, '~1'),
  );
  return ajv.validate({ $ref: `contract#/${pointer.join('/')}` }, body);
}

type Send = (body: object) => Promise<request.Response>;

const asAdmin =
  (method: 'post', path: string): (() => Promise<Send>) =>
  async () => {
    const admin = await superAdmin(t);
    return (body) => admin.client[method](`/api/v1${path}`).set('X-CSRF-Token', admin.token).send(body);
  };
const asMember =
  (path: string): (() => Promise<Send>) =>
  async () => {
    const client = t.client();
    const { token } = await registerMember(client);
    return (body) => client.post(`/api/v1${path}`).set('X-CSRF-Token', token).send(body);
  };
const asAnyone =
  (path: string): (() => Promise<Send>) =>
  async () => {
    const client = t.client();
    const token = await csrfOf(client);
    return (body) => client.post(`/api/v1${path}`).set('X-CSRF-Token', token).send(body);
  };

const events = ['credential.approved'];
const cases = [
  {
    path: '/webhooks',
    refused: { url: 'not a url', events },
    reason: 'invalid_webhook_url',
    accepted: { url: 'https://example.com/hook', events },
    field: 'url',
    send: asAdmin('post', '/webhooks'),
  },
  {
    path: '/webhooks',
    refused: { url: 'https://user:secret@example.com/hook', events },
    reason: 'invalid_webhook_url',
    accepted: { url: 'http://example.com', events },
    field: 'url',
    send: asAdmin('post', '/webhooks'),
  },
  {
    path: '/developer/extension',
    refused: { expires_in_days: 1000, reason: 'a longer project' },
    reason: 'expiry_too_far',
    accepted: { expires_in_days: 730, reason: 'a longer project' },
    field: 'expires_in_days',
    send: asMember('/developer/extension'),
  },
  {
    path: '/developer/register',
    refused: { email: 42 },
    reason: 'validation_failed',
    accepted: { username: 'dev42', password: 'secret1', email: 'dev@example.com' },
    field: 'email',
    send: asAnyone('/developer/register'),
  },
  {
    path: '/developer/register',
    refused: { username: 'dev42', password: 'secret1' },
    reason: 'validation_failed',
    accepted: { username: 'dev42', password: 'secret1', mobile: '+4912345678' },
    field: 'email',
    send: asAnyone('/developer/register'),
  },
  {
    path: '/administrators',
    refused: { username: 'h', role_group_id: 1 },
    reason: 'invalid_username',
    accepted: { username: 'helen', role_group_id: 1 },
    field: 'username',
    send: asAdmin('post', '/administrators'),
  },
  {
    path: '/administrators',
    refused: { username: 'helen', role_group_id: 1, email: 'not-an-email' },
    reason: 'invalid_email',
    accepted: { username: 'helen', role_group_id: 1, email: 'helen@example.com' },
    field: 'email',
    send: asAdmin('post', '/administrators'),
  },
  {
    path: '/role-groups',
    refused: { name: '', permissions: [] },
    reason: 'invalid_role_group_name',
    accepted: { name: 'Reviewers', permissions: [] },
    field: 'name',
    send: asAdmin('post', '/role-groups'),
  },
  {
    path: '/role-groups',
    refused: { name: 'Reviewers\u200b', permissions: [] },
    reason: 'invalid_role_group_name',
    accepted: { name: 'Reviewers 2', permissions: [] },
    field: 'name',
    send: asAdmin('post', '/role-groups'),
  },
  {
    path: '/role-groups',
    refused: { name: 'Reviewers', permissions: ['not.a.permission'] },
    reason: 'unknown_permission',
    accepted: { name: 'Reviewers', permissions: ['credential.review'] },
    field: 'permissions',
    send: asAdmin('post', '/role-groups'),
  },
  {
    path: '/role-groups',
    refused: { name: 'Reviewers', permissions: ['credential.review', 'credential.review'] },
    reason: 'duplicate_permission',
    accepted: { name: 'Reviewers', permissions: ['credential.review', 'addon.view'] },
    field: 'permissions',
    send: asAdmin('post', '/role-groups'),
  },
  {
    path: '/developer/scopes',
    refused: { scopes: ['addons.read'], reason: ' \u200b ' },
    reason: 'validation_failed',
    accepted: { scopes: ['addons.read'], reason: 'to list add-ons' },
    field: 'reason',
    send: asMember('/developer/scopes'),
  },
  {
    path: '/developer/password-reset',
    refused: { login: '   ' },
    reason: 'validation_failed',
    accepted: { login: 'dev42' },
    field: 'login',
    send: asAnyone('/developer/password-reset'),
  },
];

describe('an input the server refuses', () => {
  it.each(cases)(
    'POST $path $refused is refused by the contract and by the server ($reason)',
    async ({ path, refused, reason, accepted, send, field }) => {
      expect(contractAccepts('post', path, accepted)).toBe(true);
      expect(contractAccepts('post', path, refused)).toBe(false);
      const res = await (await send())(refused);
      expect(res.status).toBe(422);
      expect(res.body.data.error).toBe(reason);
      // One shape for "this field is wrong", whichever rule refused it: the field named in data.issues.
      expect(res.body.data.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
    },
  );

  it('bounds expires_in_days of an approval by MAX_KEY_LIFETIME_DAYS too', () => {
    expect(contractAccepts('post', '/credentials/{member_id}/approve', { expires_in_days: 730 })).toBe(true);
    expect(contractAccepts('post', '/credentials/{member_id}/approve', { expires_in_days: 731 })).toBe(false);
  });
});

describe("an add-on action's show_menu", () => {
  it('is optional for every action, and said to be ignored by disable and uninstall', () => {
    const action = '/addons/{key}/actions/{action}';
    expect(contractAccepts('post', action, {})).toBe(true);
    expect(contractAccepts('post', action, { show_menu: false })).toBe(true);
    expect(JSON.stringify(contract)).toContain('disable and uninstall: ignored');
  });
});

describe('the reasons of a refusal only the kernel answers', () => {
  it('are listed per status as an enum of data.error', () => {
    const refusal = (status: string) => ({
      $ref: `contract#/paths/~1webhooks/post/responses/${status}/content/application~1json/schema`,
    });
    const answer = (error: string) => ({ code: 419, message: 'fetch the token again', data: { error } });
    expect(ajv.validate(refusal('419'), answer('csrf_token_invalid'))).toBe(true);
    expect(ajv.validate(refusal('419'), answer('not_a_reason'))).toBe(false);
  });
});

describe('the reasons an operation declares', () => {
  const refusal = (path: string, method: string, status: string) => ({
    $ref: `contract#/paths/${path.replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`,
  });
  const answer = (code: number, error: string) => ({ code, message: 'what to fix', data: { error } });

  it("are the open API's 401, 403 and 429, as the partner gate declares them", () => {
    for (const error of [
      'api_credentials_missing',
      'api_credentials_invalid',
      'credential_revoked',
      'credential_expired',
    ])
      expect(ajv.validate(refusal('/open/addons', 'get', '401'), answer(401, error))).toBe(true);
    expect(ajv.validate(refusal('/open/addons', 'get', '401'), answer(401, 'not_logged_in'))).toBe(false);
    expect(ajv.validate(refusal('/open/addons', 'get', '403'), answer(403, 'scope_not_approved'))).toBe(true);
    expect(ajv.validate(refusal('/open/addons', 'get', '403'), answer(403, 'permission_denied'))).toBe(false);
    expect(ajv.validate(refusal('/open/addons', 'get', '429'), answer(429, 'rate_limited'))).toBe(true);
  });

  it("are a write's 400: its Idempotency-Key alone", async () => {
    expect(ajv.validate(refusal('/webhooks', 'post', '400'), answer(400, 'idempotency_key_invalid'))).toBe(true);
    expect(ajv.validate(refusal('/webhooks', 'post', '400'), answer(400, 'malformed_json'))).toBe(false);
    const admin = await superAdmin(t);
    const res = await admin.client
      .post('/api/v1/webhooks')
      .set('X-CSRF-Token', admin.token)
      .set('Idempotency-Key', 'not visible ascii\u00e9')
      .send({ url: 'https://example.com/hook', events });
    expect(res.status).toBe(400);
    expect(ajv.validate(refusal('/webhooks', 'post', '400'), res.body)).toBe(true);
  });
});
