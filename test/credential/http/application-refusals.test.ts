import {
  API,
  applied,
  claimed,
  Developer,
  expectIssue,
  expectRefusal,
  fixtures,
  fresh,
  REASON,
  registered,
  review,
  send,
  t,
  useCredentialStates,
} from './credential-states';

/** Applying for a credential when the member may not, or again. */

useCredentialStates();

describe('POST /developer/credential', () => {
  it.each(['pending', 'approved', 'active'] as const)(
    'refuses to apply again while the application is %s with 422 credential_already_applied',
    async (state) => {
      await expectRefusal(() => send(fixtures[state], '/developer/credential'), 422, 'credential_already_applied');
    },
  );

  it('refuses a property in its empty body with 422', async () => {
    const res = await expectRefusal(
      () => send(fresh, '/developer/credential', { scopes: ['addons.read'] }),
      422,
      'validation_failed',
    );
    expectIssue(res, '(body)');
  });

  it('refuses malformed JSON with 422 malformed_json', async () => {
    await expectRefusal(
      () => send(fresh, '/developer/credential').set('Content-Type', 'application/json').send('{"note":'),
      422,
      'malformed_json',
    );
  });

  it('refuses a text/plain body with 415', async () => {
    await expectRefusal(
      () => send(fresh, '/developer/credential').set('Content-Type', 'text/plain').send('{}'),
      415,
      'unsupported_media_type',
    );
  });

  const declared = (developer: Developer, charset: string) =>
    developer.client
      .post(`${API}/developer/credential`)
      .set('X-CSRF-Token', developer.token)
      .set('Content-Type', `application/json; charset=${charset}`)
      .send('{}');

  it('refuses a JSON body declared in a charset other than UTF-8 with 415, and takes utf-8 in any case', async () => {
    for (const charset of ['utf-16', 'latin1', 'bogus-xyz']) {
      const res = await expectRefusal(() => declared(fresh, charset), 415, 'unsupported_media_type');
      expect(res.body.message).toContain('UTF-8');
    }
    await declared(await registered(), 'UTF-8').expect(200);
  });

  it('accepts a POST with no body at all, as fetch and most HTTP clients send it: Content-Length 0, no type', async () => {
    const developer = await registered();
    const bodyless = (path: string) =>
      developer.client.post(`${API}${path}`).set('X-CSRF-Token', developer.token).set('Content-Length', '0');
    const res = await bodyless('/developer/credential').expect(200);
    expect(res.body.data.status).toBe('pending');
    // An endpoint that needs a body still says so.
    await expectRefusal(() => bodyless('/developer/scopes'), 415, 'unsupported_media_type');
  });
});

describe('applying again', () => {
  it('after a rejection: the application is pending again', async () => {
    const developer = await applied();
    await review(`/credentials/${developer.id}/reject`, { reason: 'tell us more about the integration' }).expect(200);
    const res = await send(developer, '/developer/credential').expect(200);
    expect(res.body.data).toMatchObject({ status: 'pending', reject_reason: null, reviewed_at: null });
  });

  it('after a revocation: approved and claimed again, under a new API id and with no scope carried over', async () => {
    const developer = await claimed();
    await send(developer, '/developer/scopes', {
      scopes: ['addons.read', 'member-groups.read'],
      reason: REASON,
    }).expect(200);
    await review(`/credentials/${developer.id}/scopes/addons.read/approve`).expect(200);
    await review(`/credentials/${developer.id}/revoke`, { reason: 'the partner contract ended' }).expect(200);

    await send(developer, '/developer/credential').expect(200);
    await review(`/credentials/${developer.id}/approve`).expect(200);
    const reclaimed = await send(developer, '/developer/claim').expect(200);
    const { apiid, apikey } = reclaimed.body.data as { apiid: string; apikey: string };
    expect(apiid).toMatch(/^ak_[a-z2-7]{20}$/);
    expect(apiid).not.toBe(developer.apiid);

    const scopes = await developer.client.get(`${API}/developer/scopes`).expect(200);
    expect(scopes.body.data.list.length).toBeGreaterThan(0);
    for (const scope of scopes.body.data.list) expect(scope).toMatchObject({ status: 'none' });

    const partner = (id: string, key: string) => () =>
      t.client().get(`${API}/open/addons`).set('X-API-ID', id).set('X-API-Key', key);
    await expectRefusal(partner(apiid, apikey), 403, 'scope_not_approved');
    await expectRefusal(partner(developer.apiid, developer.apikey), 401, 'api_credentials_invalid');
  });
});
