import { csrfOf, logInAdmin, registerMember, uniqueUsername } from '../../support/platform';
import { expectRefusal, t, useFilePlatform } from '../../support/file-platform';

useFilePlatform();

/** What every answer carries, and what the service answers outside its endpoints: unknown routes, methods, probes. */

describe('the envelope for everything else', () => {
  it('answers an unknown route with 404 in the envelope', async () => {
    await expectRefusal(() => t.client().get('/api/v1/developer/nothing-here'), 404, 'not_found');
  });

  it('answers a wrong method with 405 and the allowed ones', async () => {
    const res = await expectRefusal(() => t.client().delete('/api/v1/developer/session'), 405, 'method_not_allowed');
    expect(res.headers['allow']).toContain('GET');
  });

  it('answers OPTIONS and methods the service does not implement (TRACE) in the envelope: 405 on a known path, 404 elsewhere', async () => {
    const options = await expectRefusal(
      () => t.client().options('/api/v1/developer/session'),
      405,
      'method_not_allowed',
    );
    expect(options.headers['allow']).toBe('HEAD, GET');
    const trace = await expectRefusal(() => t.client().trace('/api/v1/developer/register'), 405, 'method_not_allowed');
    expect(trace.headers['allow']).toBe('POST');
    await expectRefusal(() => t.client().trace('/api/v1/developer/nothing-here'), 404, 'not_found');
  });

  it("answers its own request id, whatever the client sent, and logs the client's beside it", async () => {
    const first = await t.client().get('/api/v1/developer/session').set('X-Request-Id', 'trace-me-123').expect(200);
    const second = await t.client().get('/api/v1/developer/session').set('X-Request-Id', 'trace-me-123').expect(200);
    const ids = [first.headers['x-request-id'], second.headers['x-request-id']];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
    const lines = t.logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.client_request_id === 'trace-me-123' && l.msg === 'request');
    expect(lines).toEqual(
      ids.map((id) =>
        expect.objectContaining({ request_id: id, method: 'GET', path: '/api/v1/developer/session', status: 200 }),
      ),
    );
  });

  it("stores its own request id in the events, not the client's", async () => {
    const client = t.client();
    const token = await csrfOf(client);
    const res = await client
      .post('/api/v1/developer/register')
      .set('X-CSRF-Token', token)
      .set('X-Request-Id', 'shared-by-everyone')
      .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' })
      .expect(200);
    const events = (await t.allEvents()).filter((e) => e.metadata.request_id === res.headers['x-request-id']);
    expect(events.map((e) => e.type)).toContain('MemberRegistered');
    expect((await t.allEvents()).filter((e) => e.metadata.request_id === 'shared-by-everyone')).toEqual([]);
  });

  it('answers /livez and /readyz to anyone with a status and nothing else', async () => {
    expect((await t.client().get('/api/v1/livez').expect(200)).body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { status: 'ok' },
    });
    expect((await t.client().get('/api/v1/readyz').expect(200)).body).toEqual({
      code: 0,
      message: expect.any(String),
      data: { status: 'ready' },
    });
  });

  it('keeps the detailed GET /health for administrators: no path or store error for anyone else', async () => {
    const anonymous = await expectRefusal(() => t.client().get('/api/v1/health'), 401, 'admin_not_logged_in');
    expect(JSON.stringify(anonymous.body)).not.toContain(t.dataDir);
    const member = t.client();
    await registerMember(member);
    await expectRefusal(() => member.get('/api/v1/health'), 401, 'admin_not_logged_in');
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin.get('/api/v1/health').expect(200);
    expect(res.body.data).toEqual({
      status: 'ok',
      stores: [expect.objectContaining({ name: 'sqlite', ok: true })],
      projections: expect.objectContaining({ status: 'running' }),
      key_ring: 'following',
      dead_letters: { count: 0, latest: null },
    });
  });
});
