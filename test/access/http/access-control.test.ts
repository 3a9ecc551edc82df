import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { API_ID_RANDOM_BYTES, API_KEY_RANDOM_BYTES, formatApiId, formatApiKey } from '../../../src/credential/api-key';
import { Caller } from '../../../src/shared/http/endpoints';
import { mistypedKey } from '../../support/credentials';
import { csrfOf, expectRefusal, logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

/**
 * Every check here walks the real router or the real endpoint declarations, never a list kept in
 * this file, so a route added later is covered (or makes the first test fail) without editing it.
 */

const API = '/api/v1';

interface Route {
  method: string;
  /** As mounted, with the /api/v1 prefix and :parameters. */
  path: string;
}

interface DeclaredRoute extends Route {
  caller: Caller;
}

/** A browser: a cookie jar whose session token is current, and the token it had before logging in. */
interface Session {
  client: request.Agent;
  token: string;
  preLoginToken: string;
}

let t: TestPlatform;
let member: Session & { id: number };
let admin: Session;
let anonymous: Session;
let partnerKey: { apiid: string; apikey: string };

const keyOf = (route: Route) => `${route.method} ${route.path}`;

function mountedRoutes(): Route[] {
  // koa-router adds HEAD to every GET layer by itself; it is not a declared route.
  return t.platform.router.stack.flatMap((layer) =>
    layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
}

function declaredRoutes(): DeclaredRoute[] {
  // The router joins the prefix and the root route `/` into the bare prefix.
  return t.platform.endpoints.map((e) => ({
    method: e.method,
    path: e.path === '/' ? API : `${API}${e.path}`,
    caller: e.caller,
  }));
}

function declaredBy(kind: Caller['kind']): DeclaredRoute[] {
  return declaredRoutes().filter((route) => route.caller.kind === kind);
}

function callerOf(route: Route): Caller | undefined {
  return declaredRoutes().find((declared) => keyOf(declared) === keyOf(route))?.caller;
}

/** Valid values, so that a refusal can only come from the check under test, not from a parameter. */
function parameterValues(): Record<string, string> {
  return {
    member_id: String(member.id),
    role_id: '1',
    admin_id: '1',
    scope: 'addons.read',
    key: 'demo_addon',
    action: 'install',
    id: '00000000-0000-4000-8000-000000000000',
    delivery_id: '00000000-0000-4000-8000-000000000001',
  };
}

function urlOf(route: Route): string {
  const values = parameterValues();
  return route.path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`no test value for the path parameter :${name}: add one to parameterValues()`);
    return value;
  });
}

function call(client: request.Agent, route: Route, url = urlOf(route)): request.Test {
  switch (route.method) {
    case 'GET':
      return client.get(url);
    case 'POST':
      return client.post(url).send({});
    case 'PUT':
      return client.put(url).send({});
    case 'PATCH':
      return client.patch(url).send({});
    case 'DELETE':
      return client.delete(url).send({});
    default:
      throw new Error(`no way to call ${route.method} in this test: add it to call()`);
  }
}

/**
 * Runs a check on every route and reports every route that fails it, not only the first, each
 * named by method and path. An empty table would pass vacuously, so it fails instead.
 */
async function eachRoute<R extends Route>(routes: R[], check: (route: R) => Promise<void>): Promise<void> {
  expect(routes.length).toBeGreaterThan(0);
  const failures: string[] = [];
  for (const route of routes) {
    try {
      await check(route);
    } catch (err) {
      failures.push(`${keyOf(route)}: ${(err as Error).message}`);
    }
  }
  expect(failures).toEqual([]);
}

async function sessionOf(client: request.Agent, logIn: (client: request.Agent) => Promise<string>): Promise<Session> {
  const preLoginToken = await csrfOf(client);
  return { client, preLoginToken, token: await logIn(client) };
}

beforeAll(async () => {
  t = await startPlatform();

  let memberId = 0;
  const memberSession = await sessionOf(t.client(), async (client) => {
    const registered = await registerMember(client);
    memberId = registered.id;
    return registered.token;
  });
  member = { ...memberSession, id: memberId };
  admin = await sessionOf(t.client(), (client) => logInAdmin(client));
  const anonymousClient = t.client();
  const anonymousToken = await csrfOf(anonymousClient);
  anonymous = { client: anonymousClient, token: anonymousToken, preLoginToken: anonymousToken };

  // A claimed credential holding every scope the partner endpoints need, so that a refused partner
  // call was refused for the credential it offered and for nothing else.
  const asMember = (path: string, body: object = {}) =>
    member.client.post(`${API}${path}`).set('X-CSRF-Token', member.token).send(body).expect(200);
  const asAdmin = (path: string) =>
    admin.client.post(`${API}${path}`).set('X-CSRF-Token', admin.token).send({}).expect(200);
  await asMember('/developer/credential');
  await asAdmin(`/credentials/${member.id}/approve`);
  partnerKey = (await asMember('/developer/claim')).body.data;
  const scopes = [
    ...new Set(t.platform.endpoints.flatMap((e) => (e.caller.kind === 'partner' ? [e.caller.scope] : []))),
  ];
  if (scopes.length > 0) {
    await asMember('/developer/scopes', { scopes, reason: 'access-control test of the open API' });
    for (const scope of scopes) await asAdmin(`/credentials/${member.id}/scopes/${scope}/approve`);
  }
});
afterAll(() => t.close());

describe('the route table', () => {
  it('declares every mounted route with a caller, and mounts every declared one', () => {
    const mounted = new Set(mountedRoutes().map(keyOf));
    const declared = new Set(declaredRoutes().map(keyOf));
    expect([...mounted].filter((route) => !declared.has(route))).toEqual([]);
    expect([...declared].filter((route) => !mounted.has(route))).toEqual([]);
    expect(mounted.size).toBeGreaterThan(0);
  });

  it('declares each method and path once, so no route has two callers', () => {
    const keys = declaredRoutes().map(keyOf);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });
});

describe('CSRF on every write', () => {
  // A signed caller (GitHub's secret scanning) has no session: its signature stands in for the token.
  const writes = () => mountedRoutes().filter((route) => route.method !== 'GET' && callerOf(route)?.kind !== 'signed');
  // The session that would be admitted, so that the token is the only thing wrong.
  const sessionFor = (route: Route): Session => (callerOf(route)?.kind === 'admin' ? admin : member);

  // A refusal for any other reason than the token would prove nothing about the token.
  beforeEach(async () => {
    await member.client.get(`${API}/developer/dashboard`).expect(200);
    await admin.client.get(`${API}/credentials`).expect(200);
    expect(await csrfOf(member.client)).toBe(member.token);
    expect(await csrfOf(admin.client)).toBe(admin.token);
  });

  it('refuses a write without X-CSRF-Token with 419 csrf_token_missing', () =>
    eachRoute(writes(), async (route) => {
      await expectRefusal(t, () => call(sessionFor(route).client, route), 419, 'csrf_token_missing');
    }));

  it("refuses a write with the session's token from before its login with 419 csrf_token_invalid", () =>
    eachRoute(writes(), async (route) => {
      const session = sessionFor(route);
      expect(session.preLoginToken).not.toBe(session.token);
      await expectRefusal(
        t,
        () => call(session.client, route).set('X-CSRF-Token', session.preLoginToken),
        419,
        'csrf_token_invalid',
      );
    }));

  it('refuses a write with a made-up token with 419 csrf_token_invalid', () =>
    eachRoute(writes(), async (route) => {
      const madeUp = randomBytes(32).toString('base64url');
      await expectRefusal(
        t,
        () => call(sessionFor(route).client, route).set('X-CSRF-Token', madeUp),
        419,
        'csrf_token_invalid',
      );
    }));
});

describe('administrator endpoints', () => {
  it('refuse a session that is not logged in at all with 401', () =>
    eachRoute(declaredBy('admin'), async (route) => {
      await expectRefusal(
        t,
        () => call(anonymous.client, route).set('X-CSRF-Token', anonymous.token),
        401,
        'admin_not_logged_in',
      );
    }));

  it('refuse a session logged in as a member with 401: a member is not an administrator', () =>
    eachRoute(declaredBy('admin'), async (route) => {
      await expectRefusal(
        t,
        () => call(member.client, route).set('X-CSRF-Token', member.token),
        401,
        'admin_not_logged_in',
      );
    }));
});

describe('member endpoints', () => {
  it('refuse a session where only an administrator is logged in with 401', () =>
    eachRoute(declaredBy('member'), async (route) => {
      await expectRefusal(t, () => call(admin.client, route).set('X-CSRF-Token', admin.token), 401, 'not_logged_in');
    }));
});

describe('partner endpoints', () => {
  const partners = () => declaredBy('partner');
  // A client with an empty cookie jar, as a partner's server is.
  const server = () => t.client();

  it('accept the claimed credential in both headers, so the refusals below are about the credential alone', () =>
    eachRoute(partners(), async (route) => {
      await call(server(), route).set('X-API-ID', partnerKey.apiid).set('X-API-Key', partnerKey.apikey).expect(200);
    }));

  it('refuse a call without either header with 401 api_credentials_missing', () =>
    eachRoute(partners(), async (route) => {
      await expectRefusal(t, () => call(server(), route), 401, 'api_credentials_missing');
    }));

  it('refuse a call with only one of the two headers with 401', () =>
    eachRoute(partners(), async (route) => {
      await expectRefusal(
        t,
        () => call(server(), route).set('X-API-ID', partnerKey.apiid),
        401,
        'api_credentials_missing',
      );
      await expectRefusal(
        t,
        () => call(server(), route).set('X-API-Key', partnerKey.apikey),
        401,
        'api_credentials_missing',
      );
    }));

  it('refuse an unknown API id or a wrong key with 401 api_credentials_invalid', () =>
    eachRoute(partners(), async (route) => {
      const unknownId = formatApiId(randomBytes(API_ID_RANDOM_BYTES));
      const otherKey = formatApiKey(randomBytes(API_KEY_RANDOM_BYTES));
      const send = (apiid: string, apikey: string) => () =>
        call(server(), route).set('X-API-ID', apiid).set('X-API-Key', apikey);
      await expectRefusal(t, send(unknownId, partnerKey.apikey), 401, 'api_credentials_invalid');
      await expectRefusal(t, send(partnerKey.apiid, otherKey), 401, 'api_credentials_invalid');
      await expectRefusal(t, send(partnerKey.apiid, mistypedKey(partnerKey.apikey)), 401, 'api_credentials_invalid');
    }));

  it('never read the credential from the query string: a valid one there alone is 401', () =>
    eachRoute(partners(), async (route) => {
      const query = new URLSearchParams({ apikey: partnerKey.apikey, apiid: partnerKey.apiid }).toString();
      const url = `${urlOf(route)}?${query}`;
      await expectRefusal(t, () => call(server(), route, url), 401, 'api_credentials_missing');
    }));
});
