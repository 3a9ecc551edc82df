import { validate, compileErrors } from '@readme/openapi-parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platform } from '../../support/cli';
import { contract, operations, resolve, Schema, useServedContract } from './openapi-contract';

useServedContract();

describe('the OpenAPI contract at GET /openapi: the document', () => {
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
