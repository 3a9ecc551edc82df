import { openApiPath } from '../../../src/shared/http/openapi';
import { contract, operations, t, useServedContract } from './openapi-contract';

useServedContract();

describe('the OpenAPI contract at GET /openapi: security and schemas', () => {
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
});
