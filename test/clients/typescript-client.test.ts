/**
 * The repository's own client (clients/typescript) through the README's flow against a real
 * service: register, apply, approve, claim, request and approve a scope, call the open API. No
 * cookie or CSRF code here: the client's sessions keep both.
 */
import { administratorSession, developerSession, ok, partnerClient, PlatformError } from '../../clients/typescript/src';
import { ADMIN_PASSWORD, startPlatform, TestPlatform, uniqueUsername } from '../support/platform';

let service: TestPlatform;
let baseUrl: string;

beforeAll(async () => {
  service = await startPlatform();
  const { port } = service.server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${port}/api/v1`;
});
afterAll(() => service.close());

/** The thrown PlatformError of a call expected to be refused. */
async function refusal(call: Promise<unknown>): Promise<PlatformError> {
  const err = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof PlatformError)) throw err;
  return err;
}

describe('the TypeScript client', () => {
  it('takes a new member to a working API key and an open-API call', async () => {
    const username = uniqueUsername('client');
    const developer = developerSession({ baseUrl });
    const registered = await ok(
      developer.POST('/developer/register', {
        body: { username, password: 's3cret!', email: `${username}@example.com` },
      }),
    );
    const memberId = registered.data.id;
    // Registration moved the session to a new id and rotated its token: the next write still passes.
    await ok(developer.POST('/developer/credential', { body: {} }));

    const admin = administratorSession({ baseUrl });
    await ok(admin.POST('/admin/login', { body: { username: 'admin', password: ADMIN_PASSWORD } }));
    const pending = await ok(admin.GET('/credentials', { params: { query: { status: 'pending' } } }));
    expect(pending.data.list.map((c) => c.member_id)).toContain(memberId);
    await ok(admin.POST('/credentials/{member_id}/approve', { params: { path: { member_id: memberId } }, body: {} }));

    const claimed = await ok(developer.POST('/developer/claim', { body: {} }));
    await ok(
      developer.POST('/developer/scopes', { body: { scopes: ['member-groups.read'], reason: 'list member groups' } }),
    );
    await ok(
      admin.POST('/credentials/{member_id}/scopes/{scope}/approve', {
        params: { path: { member_id: memberId, scope: 'member-groups.read' } },
        body: {},
      }),
    );

    const partner = partnerClient({
      baseUrl,
      credentials: { 'X-API-ID': claimed.data.apiid, 'X-API-Key': claimed.data.apikey },
    });
    const groups = await ok(partner.GET('/open/member-groups'));
    expect(groups.data.list).toEqual(expect.arrayContaining([expect.objectContaining({ id: 1, name: 'Default' })]));

    // A scope not approved is a typed refusal carrying the reason and the status.
    const refused = await refusal(partner.GET('/open/addons'));
    expect(refused).toMatchObject({ status: 403, reason: 'scope_not_approved' });
    expect(refused.requestId).toEqual(expect.any(String));
    expect(service.contractProblems).toEqual([]);
  });

  it('throws the reason of a refusal: a wrong password, a key that is not one, a field that breaks a rule', async () => {
    const admin = administratorSession({ baseUrl });
    const wrong = await refusal(admin.POST('/admin/login', { body: { username: 'admin', password: 'not-it-at-all' } }));
    expect(wrong).toMatchObject({ status: 401, reason: 'invalid_credentials' });

    const stranger = partnerClient({ baseUrl, credentials: { 'X-API-ID': 'ak_nobody', 'X-API-Key': 'sk_nothing' } });
    expect(await refusal(stranger.GET('/open/member-groups'))).toMatchObject({ status: 401 });

    const developer = developerSession({ baseUrl });
    const invalid = await refusal(
      developer.POST('/developer/register', {
        body: { username: uniqueUsername('c'), password: 'x', email: 'a@b.co' },
      }),
    );
    expect(invalid).toMatchObject({ status: 422, reason: 'validation_failed' });
    expect(invalid.issues.map((issue) => issue.path)).toContain('password');
  });

  it('types what it sends: tsc refuses a path outside the open API to a partner, a body of the wrong shape, a missing key header', () => {
    const partner = partnerClient({ baseUrl, credentials: { 'X-API-ID': 'ak_x', 'X-API-Key': 'sk_x' } });
    const developer = developerSession({ baseUrl });
    // Not called: the lines below are checked by tsc (npm run typecheck), which fails if any compiles.
    const unchecked = () => {
      // @ts-expect-error -- a partner's key opens the open API only
      void partner.GET('/developer/dashboard');
      // @ts-expect-error -- scopes is a list
      void developer.POST('/developer/scopes', { body: { scopes: 'addons.read', reason: 'one' } });
      // @ts-expect-error -- the API key goes with its id
      void partnerClient({ baseUrl, credentials: { 'X-API-Key': 'sk_x' } });
    };
    expect(typeof unchecked).toBe('function');
  });

  it('a session logged out needs a new login: the client follows the session to its new id', async () => {
    const username = uniqueUsername('out');
    const developer = developerSession({ baseUrl });
    await ok(
      developer.POST('/developer/register', { body: { username, password: 's3cret!', email: `${username}@x.io` } }),
    );
    await ok(developer.POST('/developer/logout', { body: {} }));
    expect(await refusal(developer.GET('/developer/dashboard'))).toMatchObject({ status: 401 });
    await ok(developer.POST('/developer/login', { body: { username, password: 's3cret!' } }));
    const dashboard = await ok(developer.GET('/developer/dashboard'));
    expect(dashboard.data.member.username).toBe(username);
  });
});
