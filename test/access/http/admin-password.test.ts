import { expectRefusal, startPlatform, TestPlatform } from '../../support/platform';
import { adminBrowser, AdminBrowser, groupWithAdmin, tryLogin } from './access-clients';

let t: TestPlatform;
let root: AdminBrowser;
beforeAll(async () => {
  t = await startPlatform({ LOGIN_MAX_FAILURES: 3, LOGIN_BLOCK_SECONDS: 600 });
  root = await adminBrowser(t);
});
afterAll(() => t.close());

const change = (by: AdminBrowser, current_password: string, new_password = 'a-new-secret') =>
  by.post('/admin/password', { current_password, new_password });

describe('POST /admin/password: wrong current passwords are limited as logins are', () => {
  it('of many wrong guesses sent at once, only the limit reach the check; then even the right one waits, with Retry-After', async () => {
    const { username, password } = await groupWithAdmin(root, ['addon.view']);
    const guesser = await adminBrowser(t, { username, password });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => change(guesser, `wrong-guess-${i}`)));
    const counted = answers.map((a) => `${a.status} ${a.body.data.error}`).sort();
    expect(counted).toEqual([
      ...Array(3).fill('422 wrong_current_password'),
      ...Array(5).fill('429 too_many_password_failures'),
    ]);

    const blocked = await expectRefusal(t, () => change(guesser, password), 429, 'too_many_password_failures');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(500);
    expect((await tryLogin(t, { username, password: 'a-new-secret' })).status).toBe(401);
    expect((await tryLogin(t, { username, password })).status).toBe(200);
  });

  it("counts each administrator apart: another's guesses do not block this one, and a right password forgets the failures", async () => {
    const other = await groupWithAdmin(root, ['addon.view']);
    const asOther = await adminBrowser(t, other);
    for (let i = 0; i < 3; i++) await expectRefusal(t, () => change(asOther, 'wrong'), 422, 'wrong_current_password');

    const me = await groupWithAdmin(root, ['addon.view']);
    const asMe = await adminBrowser(t, me);
    for (let i = 0; i < 2; i++) await expectRefusal(t, () => change(asMe, 'wrong'), 422, 'wrong_current_password');
    expect((await change(asMe, me.password, 'second-secret')).status).toBe(200);
    for (let i = 0; i < 2; i++) await expectRefusal(t, () => change(asMe, 'wrong'), 422, 'wrong_current_password');
    expect((await change(asMe, 'second-secret', 'third-secret')).status).toBe(200);
    expect((await tryLogin(t, { username: me.username, password: 'third-secret' })).status).toBe(200);
  });
});
