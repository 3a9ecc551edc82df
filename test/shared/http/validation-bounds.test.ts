import { z } from 'zod';
import { HttpError } from '../../../src/shared/http/envelope';
import { parse } from '../../../src/shared/http/validate';
import { logInAdmin, registerMember, startPlatform, TestPlatform } from '../../support/platform';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

describe('a body that breaks thousands of rules', () => {
  it('is answered with the first 20 issues and how many more, in a small answer', () => {
    const thousands = Array.from({ length: 3000 }, (_, i) => `not a number ${i}`);
    let refusal: HttpError | undefined;
    try {
      parse(z.array(z.number()), thousands);
    } catch (error) {
      refusal = error as HttpError;
    }
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal!.status).toBe(422);
    expect(refusal!.issues).toHaveLength(20);
    expect(refusal!.message).toContain('and 2980 more issues (the first 20 of 3000 are listed)');
    expect(refusal!.message.length).toBeLessThan(10_000);
  });

  it('names the first 20 problems of a page-roles whitelist and how many more, in a small answer', async () => {
    const admin = t.client();
    const token = await logInAdmin(admin);
    const pageRoles = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, 'x']));
    const res = await admin
      .post('/api/v1/addons/uptime_monitor/actions/install')
      .set('X-CSRF-Token', token)
      .send({ page_roles: pageRoles });
    expect(res.status).toBe(422);
    expect(res.body.data.error).toBe('invalid_page_roles');
    expect(res.body.message.split('; ').length).toBeLessThanOrEqual(21);
    expect(res.body.message).toMatch(/and \d+ more problems/);
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });

  it('lists every issue when there are no more than 20', async () => {
    const client = t.client();
    const member = await registerMember(client);
    const res = await client
      .post('/api/v1/developer/scopes')
      .set('X-CSRF-Token', member.token)
      .send({ scopes: [1, 2], reason: 'integration' });
    expect(res.status).toBe(422);
    expect(res.body.data.issues).toHaveLength(2);
    expect(res.body.message).not.toContain('more issues');
  });
});
