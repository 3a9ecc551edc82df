import { validate, compileErrors } from '@readme/openapi-parser';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_PREFIX } from '../../../src/shared/http/app';
import { openApiPath } from '../../../src/shared/http/openapi';
import { platform } from '../../support/cli';
import { expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: { pattern?: string; enum?: string[] } }[];
  requestBody?: unknown;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
type Contract = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in: string; name: string }> };
};

describe('the OpenAPI contract at GET /openapi', () => {
  let t: TestPlatform;
  let contract: Contract;
  beforeAll(async () => {
    t = await startPlatform();
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin.get('/api/v1/openapi').expect(200).expect('Content-Type', /application\/json/);
    contract = res.body as Contract;
  });
  afterAll(() => t.close());

  const operations = () =>
    Object.entries(contract.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));

  it('is OpenAPI 3.1 at version 1.2.0, answered without the envelope', () => {
    expect(contract.openapi).toBe('3.1.0');
    expect(contract.info.version).toBe('1.2.0');
    expect(contract).not.toHaveProperty('code');
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
        layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${openApiPath(String(layer.path).slice(API_PREFIX.length))}`),
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
        expect({ path, parameter: parameter.name, required: parameter.required }).toEqual({ path, parameter: parameter.name, required: true });
        expect(parameter.schema?.pattern ?? parameter.schema?.enum).toBeDefined();
      }
    }
  });

  it('requires X-CSRF-Token on every write and on no read', () => {
    for (const { path, method, op } of operations()) {
      const csrf = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'X-CSRF-Token');
      expect({ path, method, csrf: Boolean(csrf?.required) }).toEqual({ path, method, csrf: method !== 'get' });
      if (method !== 'get') expect(op.responses).toHaveProperty('419');
    }
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

  it('documents 401 and 403 on endpoints that need an identity or a permission', () => {
    const byEndpoint = new Map(t.platform.endpoints.map((e) => [`${e.method.toLowerCase()} ${openApiPath(e.path)}`, e.caller]));
    for (const { path, method, op } of operations()) {
      const caller = byEndpoint.get(`${method} ${path}`)!;
      const statuses = Object.keys(op.responses);
      if (caller.kind !== 'anyone') expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['401']) });
      if (caller.kind === 'admin' && caller.permission) expect({ path, statuses }).toEqual({ path, statuses: expect.arrayContaining(['403']) });
      expect(op.security).toEqual(caller.kind === 'anyone' ? [] : expect.any(Array));
    }
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
