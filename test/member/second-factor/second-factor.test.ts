import request from 'supertest';
import { csrfOf, logInAdmin, registerMember, sessionCookie, startPlatform, TestPlatform } from '../../support/platform';
import { codeAt, enrolTotp, passwordSignIn, secondFactor } from '../../support/totp';

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform({ LOGIN_MAX_FAILURES: 4 });
});
afterAll(() => t.close());

/** A member with TOTP enrolled: its seed and recovery codes, and a fresh client holding nothing. */
async function enrolledMember() {
  const owner = t.client();
  const member = await registerMember(owner);
  const enrolled = await enrolTotp(owner, '/developer');
  return { ...member, ...enrolled };
}

/** A client whose password sign-in awaits its second factor. */
async function pendingClient(member: { username: string; password: string }) {
  const client = t.client();
  const res = await passwordSignIn(client, '/developer', member);
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ second_factor_required: true, second_factor_enrolment_required: false });
  return client;
}

describe('TOTP for a developer member', () => {
  it('enrols (a base32 seed and an otpauth URI, 10 recovery codes) and then signs in only with a code', async () => {
    const member = await enrolledMember();
    expect(member.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(member.otpauth_uri).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]{32}/);
    expect(member.recovery_codes).toHaveLength(10);
    const client = await pendingClient(member);
    // The pending session can do nothing else, and says why.
    const refused = await client.get('/api/v1/developer/dashboard').expect(403);
    expect(refused.body.data.error).toBe('second_factor_required');
    expect(refused.body.message).toMatch(/POST \/developer\/login\/second-factor/);
    const done = await secondFactor(client, '/developer', { code: await codeAt(member.secret) });
    expect(done.status).toBe(200);
    expect(sessionCookie(done)).toBeDefined();
    expect(done.body.data).toMatchObject({ id: member.id, username: member.username, recovery_codes_remaining: 10 });
    await client.get('/api/v1/developer/dashboard').expect(200);
    const status = await client.get('/api/v1/developer/2fa').expect(200);
    expect(status.body.data).toEqual({ totp: true, recovery_codes_remaining: 10 });
  });

  it('refuses a code used already (replay), a wrong one, and a code without a pending sign-in', async () => {
    const member = await enrolledMember();
    const code = await codeAt(member.secret);
    const first = await pendingClient(member);
    await secondFactor(first, '/developer', { code }).then((r) => expect(r.status).toBe(200));
    const second = await pendingClient(member);
    const replayed = await secondFactor(second, '/developer', { code });
    expect([replayed.status, replayed.body.data.error]).toEqual([401, 'invalid_second_factor']);
    await second.get('/api/v1/developer/dashboard').expect(403);
    const nobody = await secondFactor(t.client(), '/developer', { code });
    expect([nobody.status, nobody.body.data.error]).toEqual([401, 'no_pending_sign_in']);
    const malformed = await secondFactor(second, '/developer', { code: '12ab' });
    expect(malformed.status).toBe(422);
  });

  it('a logout abandons the sign-in awaiting its code: the code then completes nothing', async () => {
    const member = await enrolledMember();
    const client = await pendingClient(member);
    const res = await client
      .post('/api/v1/developer/logout')
      .set('X-CSRF-Token', await csrfOf(client))
      .expect(200);
    expect(sessionCookie(res)).toBeDefined();
    const late = await secondFactor(client, '/developer', { code: await codeAt(member.secret) });
    expect([late.status, late.body.data.error]).toEqual([401, 'no_pending_sign_in']);
    await client.get('/api/v1/developer/dashboard').expect(401);
  });

  it('of two sign-ins sending the same code at once, exactly one succeeds', async () => {
    const member = await enrolledMember();
    const code = await codeAt(member.secret);
    const clients = await Promise.all([pendingClient(member), pendingClient(member), pendingClient(member)]);
    const tokens = await Promise.all(clients.map(csrfOf));
    const answers = await Promise.all(
      clients.map((client, i) =>
        client.post('/api/v1/developer/login/second-factor').set('X-CSRF-Token', tokens[i]!).send({ code }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('a recovery code signs in once, and is counted down', async () => {
    const member = await enrolledMember();
    const [recovery] = member.recovery_codes;
    const first = await pendingClient(member);
    const used = await secondFactor(first, '/developer', { recovery_code: recovery });
    expect([used.status, used.body.data.recovery_codes_remaining]).toEqual([200, 9]);
    const again = await secondFactor(await pendingClient(member), '/developer', { recovery_code: recovery });
    expect([again.status, again.body.data.error]).toEqual([401, 'invalid_second_factor']);
    const events = (await t.allEvents()).filter((e) => e.type === 'RecoveryCodeUsed');
    expect(events.at(-1)!.metadata.actor).toEqual({ kind: 'member', id: member.id });
  });

  it('wrong codes count in the login limit with wrong passwords: 429 after it, even for the right code', async () => {
    const member = await enrolledMember();
    const pending = await pendingClient(member);
    const wrongCode = async (code: string) => {
      const wrong = await secondFactor(pending, '/developer', { code });
      expect([wrong.status, wrong.body.data.error]).toEqual([401, 'invalid_second_factor']);
    };
    await wrongCode('000000');
    await wrongCode('111111');
    // A wrong password for the same username from the same address counts on the same limit.
    const wrongPassword = await passwordSignIn(t.client(), '/developer', { ...member, password: 'wrong-one' });
    expect(wrongPassword.status).toBe(401);
    await wrongCode('222222');
    const limited = await secondFactor(pending, '/developer', { code: await codeAt(member.secret) });
    expect([limited.status, limited.body.data.error]).toEqual([429, 'too_many_login_failures']);
  });

  it('removes the factor only with the password and a code; then the password alone signs in', async () => {
    const member = await enrolledMember();
    const client = await pendingClient(member);
    await secondFactor(client, '/developer', { code: await codeAt(member.secret) }).then((r) =>
      expect(r.status).toBe(200),
    );
    const remove = async (body: object) => {
      const token = await csrfOf(client);
      return client.delete('/api/v1/developer/2fa').set('X-CSRF-Token', token).send(body);
    };
    const wrongPassword = await remove({ password: 'wrong', code: await codeAt(member.secret, 1) });
    expect([wrongPassword.status, wrongPassword.body.data.error]).toEqual([422, 'wrong_current_password']);
    const wrongCode = await remove({ password: member.password, code: '000000' });
    expect([wrongCode.status, wrongCode.body.data.error]).toEqual([422, 'wrong_code']);
    const removed = await remove({ password: member.password, recovery_code: member.recovery_codes[3] });
    expect(removed.status).toBe(200);
    const again = await passwordSignIn(t.client(), '/developer', member);
    expect(again.body.data.second_factor_required).toBe(false);
    // Nothing left to remove: said as such, whatever code comes with it.
    const twice = await remove({ password: member.password, recovery_code: member.recovery_codes[4] });
    expect([twice.status, twice.body.data.error]).toEqual([422, 'no_second_factor']);
    const types = (await t.allEvents()).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['TotpEnrolmentBegun', 'TotpEnrolled', 'SecondFactorRemoved']));
  });

  it('keeps the seed sealed: never in clear in the log of events, the audit export or the log lines', async () => {
    const member = await enrolledMember();
    const stored = JSON.stringify(await t.allEvents());
    expect(stored).not.toContain(member.secret);
    expect(stored).toContain('sealed_secret');
    for (const code of member.recovery_codes) expect(stored).not.toContain(code);
    expect(t.logLines.join('\n')).not.toContain(member.secret);
    const admin = t.client();
    await logInAdmin(admin);
    const history = await admin.get(`/api/v1/admin/members/${member.id}/history`);
    if (history.status === 200) {
      const told = JSON.stringify(history.body);
      expect(told).not.toContain('sealed_secret');
      expect(told).toContain('authenticator app');
    }
  });
});

describe('TOTP for an administrator', () => {
  it('the seeded administrator enrols, then signs in with a code; the sign-in is recorded once it completes', async () => {
    const owner = t.client();
    await logInAdmin(owner);
    const totpListed = async () =>
      (await owner.get('/api/v1/administrators').expect(200)).body.data.list.find(
        (a: { username: string }) => a.username === 'admin',
      ).second_factors.totp;
    // The members enrolled above (member 1 among them) are no administrator's factor.
    expect(await totpListed()).toBe(false);
    const { secret } = await enrolTotp(owner, '/admin');
    expect(await totpListed()).toBe(true);
    const client: request.Agent = t.client();
    const res = await passwordSignIn(client, '/admin', { username: 'admin', password: 'admin-secret' });
    expect(res.body.data.second_factor_required).toBe(true);
    const refused = await client.get('/api/v1/administrators').expect(403);
    expect(refused.body.data.error).toBe('second_factor_required');
    const signedInBefore = (await t.allEvents()).filter((e) => e.type === 'AdministratorSignedIn').length;
    const done = await secondFactor(client, '/admin', { code: await codeAt(secret) });
    expect(done.status).toBe(200);
    await client.get('/api/v1/administrators').expect(200);
    expect((await t.allEvents()).filter((e) => e.type === 'AdministratorSignedIn')).toHaveLength(signedInBefore + 1);
    // Removed again, so the other tests' administrator signs in with its password alone.
    const token = await csrfOf(client);
    const code = await codeAt(secret, 1);
    await client
      .delete('/api/v1/admin/2fa')
      .set('X-CSRF-Token', token)
      .send({ password: 'admin-secret', code })
      .expect(200);
    expect(await totpListed()).toBe(false);
  });
});
