import { startPlatform, TestPlatform } from '../../support/platform';

describe('GET /api/v1, the root of the API', () => {
  let t: TestPlatform;
  beforeAll(async () => (t = await startPlatform()));
  afterAll(() => t.close());

  it.each(['/api/v1', '/api/v1/'])('%s answers in the envelope where to go next, without a session', async (path) => {
    const res = await t
      .client()
      .get(path)
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body).toEqual({
      code: 0,
      message: expect.stringContaining('/ui/'),
      data: {
        service: 'Platform API',
        contract_version: '1.1.0',
        links: {
          console: '/ui/',
          readiness: '/api/v1/readyz',
          health: '/api/v1/health',
          contract: '/api/v1/openapi',
          developer_session: '/api/v1/developer/session',
        },
      },
    });
  });

  it('points at places that answer', async () => {
    const { body } = await t.client().get('/api/v1').expect(200);
    const links = (body as { data: { links: Record<string, string> } }).data.links;
    await t.client().get(links.readiness!).expect(200);
    await t.client().get(links.health!).expect(401);
    await t.client().get(links.developer_session!).expect(200);
    // The contract needs an administrator: a refusal in the envelope, not a missing page.
    await t.client().get(links.contract!).expect(401);
  });
});
