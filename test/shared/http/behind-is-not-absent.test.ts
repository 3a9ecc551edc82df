import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logInAdmin, startPlatform, TestPlatform, uniqueUsername, csrfOf } from '../../support/platform';

/**
 * Issue 45, item 5: a read that finds nothing while its read model is behind the log answers 503
 * read_model_lagging, not 404. The service runs with PROJECTIONS=off and no projector process (the
 * projector is down): the read models hold what an earlier run projected, the log holds more.
 */
const dir = mkdtempSync(join(tmpdir(), 'platform-behind-'));
let t: TestPlatform;

beforeAll(async () => {
  // An earlier run, with its projections, seeds the administrator into the read models.
  const seeded = await startPlatform({}, dir);
  await seeded.close();
  t = await startPlatform({ PROJECTIONS: 'off', READ_WAIT_MS: 300 }, dir);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

it('approving a member registered a moment before, with the projector down, is 503 read_model_lagging with Retry-After, not 404 member_not_found', async () => {
  const registering = t.client();
  const registrationToken = await csrfOf(registering);
  const registered = await registering
    .post('/api/v1/developer/register')
    .set('X-CSRF-Token', registrationToken)
    .send({ username: uniqueUsername(), password: 'secret1', email: 'dev@example.com' });
  // Registration answers from its own decision; the read model that would show the member does not move.
  expect(registered.status).toBe(200);
  const memberId = registered.body.data.id as number;

  const admin = t.client();
  const token = await logInAdmin(admin);
  const approved = await admin.post(`/api/v1/credentials/${memberId}/approve`).set('X-CSRF-Token', token).send({});
  expect([approved.status, approved.body.data.error, approved.headers['retry-after']]).toEqual([
    503,
    'read_model_lagging',
    '1',
  ]);
});
