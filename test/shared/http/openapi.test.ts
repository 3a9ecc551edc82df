import { validate, compileErrors } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PREFIX } from '../../../src/shared/http/app';
import { openApiPath } from '../../../src/shared/http/openapi';
import { platform } from '../../support/cli';
import { expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  anyOf?: unknown[];
}

interface Operation {
  tags?: string[];
  parameters?: {
    in: string;
    name: string;
    required?: boolean;
    schema?: { pattern?: string; enum?: string[]; minimum?: number };
  }[];
  requestBody?: unknown;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
type Contract = {
  openapi: string;
  security?: Record<string, string[]>[];
  info: { version: string; 'x-implementation-version': string; contact?: unknown };
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
    schemas: Record<string, Schema>;
  };
};

describe('the OpenAPI contract at GET /openapi', () => {
  let t: TestPlatform;
  let contract: Contract;
  beforeAll(async () => {
    t = await startPlatform();
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin
      .get('/api/v1/openapi')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    contract = res.body as Contract;
  });
  afterAll(() => t.close());

  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? contract.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

  const operations = () =>
    Object.entries(contract.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );

  it("is OpenAPI 3.1 at the contract's version 1.1.0, answered without the envelope", () => {
    expect(contract.openapi).toBe('3.1.0');
    expect(contract.info.version).toBe('1.1.0');
    expect(contract).not.toHaveProperty('code');
  });

  it("names the implementation's own version apart from the contract's", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version: string };
    expect(contract.info['x-implementation-version']).toBe(pkg.version);
  });

  it('gives an absolute server URL through a base_url variable, as tools that proxy the service need', () => {
    expect(contract.servers).toEqual([
      {
        url: '{base_url}/api/v1',
        variables: { base_url: expect.objectContaining({ default: 'http://localhost:3000' }) },
      },
    ]);
  });

  it('lists every tag an operation uses', () => {
    const declared = new Set(contract.tags.map((tag) => tag.name));
    for (const { path, method, op } of operations()) {
      expect({ path, method, undeclared: (op.tags ?? []).filter((tag) => !declared.has(tag)) }).toEqual({
        path,
        method,
        undeclared: [],
      });
    }
  });

  it('documents every envelope code as an integer, 0 on success', () => {
    let judged = 0;
    for (const { path, method, op } of operations()) {
      for (const [status, response] of Object.entries(
        op.responses as Record<string, { content?: Record<string, { schema?: Schema }> }>,
      )) {
        const schema = resolve(response.content?.['application/json']?.schema);
        if (!schema?.properties?.code) continue;
        judged += 1;
        expect({ path, method, status, code: schema.properties.code }).toEqual({
          path,
          method,
          status,
          code: expect.objectContaining({ type: 'integer', ...(status === '200' && { const: 0 }) }),
        });
      }
    }
    expect(judged).toBeGreaterThan(100);
  });

  it("holds the body rules the service checks beyond the fields' own: a client validating by it is refused nothing it let through", () => {
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(contract as object, 'contract');
    const accepts = (path: string, body: unknown) => {
      const pointer = ['paths', path, 'post', 'requestBody', 'content', 'application/json', 'schema']
        .map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      return ajv.validate({ $ref: `contract#/${pointer}` }, body);
    };
    const register = { username: 'alice', password: 'secret1' };
    expect(accepts('/developer/register', { ...register, email: 'a@example.com' })).toBe(true);
    expect(accepts('/developer/register', { ...register, email: '', mobile: '+4915112345678' })).toBe(true);
    expect(accepts('/developer/register', { ...register, email: ' ' })).toBe(false);
    expect(accepts('/developer/register', register)).toBe(false);
    expect(accepts('/developer/extension', { reason: 'more time', expires_in_days: 30 })).toBe(true);
    expect(accepts('/developer/extension', { reason: 'more time' })).toBe(false);
    expect(
      accepts('/developer/extension', { reason: 'more time', expires_in_days: 30, expires_at: '2030-01-01T00:00:00Z' }),
    ).toBe(false);
    expect(accepts('/developer/extension', { reason: 'more time', expires_in_days: 30, extra: 1 })).toBe(false);
    expect(accepts('/credentials/{member_id}/approve', {})).toBe(true);
    expect(
      accepts('/credentials/{member_id}/approve', { expires_in_days: 30, expires_at: '2030-01-01T00:00:00Z' }),
    ).toBe(false);
    expect(accepts('/developer/scopes', { scopes: ['addons.read'], reason: 'listing' })).toBe(true);
    expect(accepts('/developer/scopes', { scopes: ['addons.read', 'addons.read'], reason: 'listing' })).toBe(false);
    expect(accepts('/developer/scopes', { scopes: ['addons.write'], reason: 'listing' })).toBe(false);
    expect(
      accepts('/webhooks', { url: 'https://example.com/hook', events: ['scope.approved', 'scope.approved'] }),
    ).toBe(false);
    const limit = contract.paths['/credentials']!.get!.parameters!.find((p) => p.name === 'limit')!.schema;
    expect(limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
  });

  it('describes the NDJSON export as a string of lines, each line by its own schema', () => {
    const media = (
      contract.paths['/audit/events']!.get!.responses['200'] as {
        content: Record<string, { schema: Schema; 'x-line-schema': Schema }>;
      }
    ).content['application/x-ndjson']!;
    expect(media.schema).toMatchObject({ type: 'string' });
    expect(resolve(media['x-line-schema'])?.anyOf).toHaveLength(2);
  });

  it('is a valid OpenAPI document', async () => {
    const result = await validate(structuredClone(contract) as never);
    if (!result.valid) throw new Error(compileErrors(result));
    expect(result.valid).toBe(true);
  });

  it('refuses an anonymous caller and a member session', async () => {
    await expectRefusal(t, () => t.client().get('/api/v1/openapi'), 401, 'admin_not_logged_in');
    const member = t.client();
    await registerMember(member);
    await expectRefusal(t, () => member.get('/api/v1/openapi'), 401, 'admin_not_logged_in');
  });

  it('has exactly the operations the router serves, both ways', () => {
    const routed = new Set(
      t.platform.router.stack.flatMap((layer) =>
        layer.methods
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${openApiPath(String(layer.path).slice(API_PREFIX.length))}`),
      ),
    );
    const documented = new Set(operations().map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    expect([...routed].filter((r) => !documented.has(r))).toEqual([]);
    expect([...documented].filter((d) => !routed.has(d))).toEqual([]);
    expect(documented.size).toBeGreaterThanOrEqual(24);
  });

  it('documents every path parameter with its rule', () => {
    for (const { path, op } of operations()) {
      const named = [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
      const documented = (op.parameters ?? []).filter((p) => p.in === 'path');
      expect(documented.map((p) => p.name).sort()).toEqual([...named].sort());
      for (const parameter of documented) {
        expect({ path, parameter: parameter.name, required: parameter.required }).toEqual({
          path,
          parameter: parameter.name,
          required: true,
        });
        // A rule: a pattern, the names allowed, or an integer's range.
        expect(parameter.schema?.pattern ?? parameter.schema?.enum ?? parameter.schema?.minimum).toBeDefined();
      }
    }
  });

  it('requires the body of PUT access and of the add-on actions (docs/rules.md, "Add-ons and page roles"), not the empty body of claim and logout', () => {
    const required = (path: string, method: string) =>
      (contract.paths[path]![method]!.requestBody as { required: boolean }).required;
    expect(required('/addons/{key}/access', 'put')).toBe(true);
    expect(required('/addons/{key}/actions/{action}', 'post')).toBe(true);
    expect(required('/developer/claim', 'post')).toBe(false);
    expect(required('/developer/logout', 'post')).toBe(false);
  });

  it('lists several reasons for one status one per line, each whole, and a single reason alone', () => {
    const unavailable = (
      contract.paths['/credentials']!.get!.responses['503'] as { description: string }
    ).description.split('\n');
    expect(unavailable.length).toBeGreaterThan(1);
    for (const line of unavailable) expect(line).toMatch(/^- \S/);
    expect(unavailable.some((line) => line.includes('catching up (read_model_lagging)'))).toBe(true);
    expect((contract.paths['/credentials']!.get!.responses['500'] as { description: string }).description).toBe(
      'server error: never to be taken as success',
    );
  });

  // A signed caller (GitHub's secret scanning) has no session: its writes carry a signature instead.
  const signed = (path: string) =>
    t.platform.endpoints.some((e) => e.caller.kind === 'signed' && openApiPath(e.path) === path);

  it("requires X-CSRF-Token on every write but a signed caller's, and on no read", () => {
    for (const { path, method, op } of operations()) {
      const csrf = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'X-CSRF-Token');
      const write = method !== 'get' && !signed(path);
      expect({ path, method, csrf: Boolean(csrf?.required) }).toEqual({ path, method, csrf: write });
      if (write) expect(op.responses).toHaveProperty('419');
    }
  });

  it("takes Idempotency-Key on every write but a signed caller's through one reusable parameter, with its refusals, and on no read", () => {
    const shared = (
      contract.components as unknown as { parameters: Record<string, { in: string; name: string; required?: boolean }> }
    ).parameters;
    expect(shared.IdempotencyKey).toMatchObject({ in: 'header', name: 'Idempotency-Key' });
    expect(shared.IdempotencyKey?.required).not.toBe(true);
    for (const { path, method, op } of operations()) {
      const refs = (op.parameters ?? []).map((p) => (p as { $ref?: string }).$ref);
      const write = method !== 'get' && !signed(path);
      expect({ path, method, key: refs.includes('#/components/parameters/IdempotencyKey') }).toEqual({
        path,
        method,
        key: write,
      });
      if (write) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '409', '422']));
    }
    expect(JSON.stringify(contract.paths['/developer/claim']!.post!.responses['409'])).toContain(
      'secret_already_issued',
    );
  });

  it('names the session cookie and the API id and key headers as security schemes', () => {
    expect(contract.components.securitySchemes).toEqual({
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'PHPSESSID' }),
      apiId: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-ID' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }),
    });
    for (const { path, op } of operations().filter(({ path }) => path.startsWith('/open/'))) {
      expect({ path, security: op.security }).toEqual({ path, security: [{ apiId: [], apiKey: [] }] });
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
  });

  it('documents 401, 403 and 422 on every member endpoint', () => {
    const members = t.platform.endpoints.filter((e) => e.caller.kind === 'member');
    expect(members.length).toBeGreaterThanOrEqual(7);
    for (const e of members) {
      const path = openApiPath(e.path);
      const statuses = Object.keys(contract.paths[path]![e.method.toLowerCase()]!.responses);
      expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['401', '403', '422']) });
    }
  });

  it('documents 401 and 403 on endpoints that need an identity or a permission', () => {
    const byEndpoint = new Map(
      t.platform.endpoints.map((e) => [`${e.method.toLowerCase()} ${openApiPath(e.path)}`, e.caller]),
    );
    for (const { path, method, op } of operations()) {
      const caller = byEndpoint.get(`${method} ${path}`)!;
      const statuses = Object.keys(op.responses);
      if (caller.kind !== 'anyone')
        expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['401']) });
      if (caller.kind === 'admin' && caller.permission)
        expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['403']) });
      // Administrator endpoints take the contract's default; the others say their own.
      const own = {
        anyone: method === 'get' ? [] : [{ session: [] }],
        member: [{ session: [] }],
        partner: [{ apiId: [], apiKey: [] }],
        signed: [],
        admin: undefined,
      }[caller.kind];
      expect({ path, method, security: op.security }).toEqual({ path, method, security: own });
    }
  });

  it('declares the administrator session as the default, and the session cookie register and login need for their CSRF token', () => {
    expect(contract.security).toEqual([{ session: [] }]);
    expect(contract.paths['/developer/register']!.post!.security).toEqual([{ session: [] }]);
    expect(contract.paths['/developer/login']!.post!.security).toEqual([{ session: [] }]);
    expect(contract.paths['/developer/session']!.get!.security).toEqual([]);
    expect(contract.paths['/credentials']!.get!).not.toHaveProperty('security');
  });

  it('types member_id path parameters as the integers member ids are', () => {
    const memberIds = operations().flatMap(({ op }) =>
      (op.parameters ?? []).filter((p) => p.in === 'path' && p.name === 'member_id'),
    );
    expect(memberIds.length).toBeGreaterThanOrEqual(8);
    for (const parameter of memberIds) expect(parameter.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });

  it('lets answers carry fields a client does not know yet, while request bodies refuse unknown fields', () => {
    const text = JSON.stringify(contract.paths);
    const answers = operations().map(({ op }) => JSON.stringify(op.responses));
    for (const answer of answers) expect(answer).not.toContain('"additionalProperties":false');
    expect(JSON.stringify(contract.components.schemas.Dashboard)).not.toContain('"additionalProperties":false');
    expect(text).toContain('"additionalProperties":false');
  });

  it('requires only the key of a catalogue entry: the other fields may be omitted', () => {
    expect(contract.components.schemas.CatalogueEntry).toMatchObject({ required: ['key'] });
  });

  it('is what `platform openapi` prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-openapi-'));
    try {
      const run = await platform(dir, ['openapi']);
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(run.stdout)).toEqual(contract);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
