import { API_PREFIX } from '../../../src/shared/http/app';
import { openApiPath } from '../../../src/shared/http/openapi';
import { expectRefusal, registerMember } from '../../support/platform';
import { contract, operations, t, useServedContract } from './openapi-contract';

useServedContract();

describe('the OpenAPI contract at GET /openapi: its operations', () => {
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
});
