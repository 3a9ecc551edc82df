import { Agent } from 'node:http';
import request from 'supertest';
import {
  Answer,
  csrfOf,
  expectRefusal as refusal,
  logIn,
  registerMember,
  startPlatform,
  TestPlatform,
} from '../../support/platform';
import { mailedToken, mailsTo, post, Sink, uniqueEmail, startWithMail, stopWithMail } from '../mailed-links';

let sink: Sink;
let t: TestPlatform;
beforeAll(async () => {
  ({ sink, t } = await startWithMail({
    PUBLIC_URL: 'https://portal.example.com',
    PASSWORD_RESET_ADDRESS_LIMIT: 10_000,
  }));
});
afterAll(() => stopWithMail({ sink, t }));

const RESET = '/api/v1/developer/password-reset';
const CONFIRM = '/api/v1/developer/password-reset/confirm';
const expectRefusal = (send: () => PromiseLike<Answer>, status: number, error: string) =>
  refusal(t, send, status, error);

const ask = (client: request.Agent, login: string) => post(client, RESET, { login });
const confirm = (client: request.Agent, token: string, password: string) => post(client, CONFIRM, { token, password });

async function memberWithMail(prefix: string) {
  const email = uniqueEmail(prefix);
  return registerMember(t.client(), { email });
}

describe('POST /developer/password-reset', () => {
  it('answers a known and an unknown login alike, and mails a link only to the known one', async () => {
    const member = await memberWithMail('known');
    const known = await ask(t.client(), member.username);
    const unknown = await ask(t.client(), 'nobody-by-that-name');
    const unknownEmail = await ask(t.client(), uniqueEmail('nobody'));
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(unknownEmail.body).toEqual(known.body);
    expect(known.body.data).toEqual({ mail_configured: true });
    const { mail, token } = await mailedToken(sink, member.email);
    expect(mail.subject).toBe('Reset your API platform password');
    expect(mail.text).toContain(`https://portal.example.com/ui/developer/reset?token=`);
    expect(token).toMatch(new RegExp(`^${member.id}\\.`));
  });

  it('does the lookup and the mail a while after the answer: nothing is recorded by the time the next request is answered', async () => {
    const member = await memberWithMail('later');
    const client = t.client();
    expect((await ask(client, member.username)).status).toBe(200);
    await client.get(RESET).expect(200);
    const recorded = async () =>
      (await t.allEvents()).filter((e) => e.type === 'PasswordResetRequested' && e.data.member_id === member.id);
    expect(await recorded()).toHaveLength(0);
    await mailedToken(sink, member.email);
    expect(await recorded()).toHaveLength(1);
  });

  it('finds the member by e-mail address too', async () => {
    const member = await memberWithMail('byemail');
    expect((await ask(t.client(), member.email)).status).toBe(200);
    await mailedToken(sink, member.email);
  });

  it('keeps no token in the log: only its digest, which the audit answers leave out', async () => {
    const member = await memberWithMail('digest');
    await ask(t.client(), member.username);
    const { token } = await mailedToken(sink, member.email);
    const logged = JSON.stringify(await t.allEvents());
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(token.split('.')[1]);
    expect(t.logLines.join('\n')).not.toContain(token.split('.')[1]);
  });

  it('mails one member no more than PASSWORD_RESET_MEMBER_LIMIT links an hour, answering as usual', async () => {
    const member = await memberWithMail('flood');
    for (let i = 0; i < 5; i++) expect((await ask(t.client(), member.username)).status).toBe(200);
    await mailedToken(sink, member.email, 3);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo(sink, member.email)).toHaveLength(3);
  });

  it('refuses a body without a login, and malformed JSON, appending nothing', async () => {
    const client = t.client();
    const csrf = await csrfOf(client);
    await expectRefusal(() => client.post(RESET).set('X-CSRF-Token', csrf).send({}), 422, 'validation_failed');
    await expectRefusal(
      () => client.post(RESET).set('X-CSRF-Token', csrf).set('Content-Type', 'application/json').send('{"login": '),
      422,
      'malformed_json',
    );
  });

  it('refuses a request without the CSRF token of the session (419)', async () => {
    const client = t.client();
    await csrfOf(client);
    await expectRefusal(
      () => client.post(RESET).set('X-CSRF-Token', 'not-the-token').send({ login: 'anyone' }),
      419,
      'csrf_token_invalid',
    );
  });
});

describe('POST /developer/password-reset/confirm', () => {
  async function linkFor(prefix: string) {
    const browser = t.client();
    const member = await registerMember(browser, { email: uniqueEmail(prefix) });
    await ask(t.client(), member.username);
    const { token } = await mailedToken(sink, member.email);
    return { member, browser, token };
  }

  it('sets the new password once, ends every session of the member, and the old password stops working', async () => {
    const { member, browser, token } = await linkFor('reset');
    await browser.get('/api/v1/developer/dashboard').expect(200);
    const res = await confirm(t.client(), token, 'brand-new-secret');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ username: member.username });
    await expectRefusal(() => browser.get('/api/v1/developer/dashboard'), 401, 'session_expired');
    const again = t.client();
    const old = await post(again, '/api/v1/developer/login', { username: member.username, password: member.password });
    expect(old.status).toBe(401);
    await logIn(t.client(), { username: member.username, password: 'brand-new-secret' });
    const events = (await t.allEvents()).filter((e) => e.type === 'PasswordReset');
    expect(events.at(-1)!.metadata.actor).toEqual({ kind: 'member', id: member.id });
  });

  it('refuses the spent link a second time', async () => {
    const { token } = await linkFor('spent');
    expect((await confirm(t.client(), token, 'first-new-secret')).status).toBe(200);
    await expectRefusal(() => confirm(t.client(), token, 'second-new-secret'), 422, 'reset_token_spent');
  });

  it('lets exactly one of two simultaneous uses of one link win', async () => {
    const { member, token } = await linkFor('race');
    const answers = await Promise.all(
      ['race-one-secret', 'race-two-secret'].map((password) => confirm(t.client(), token, password)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.body.data.error).toBe('reset_token_spent');
    const winner = answers[0]!.status === 200 ? 'race-one-secret' : 'race-two-secret';
    await logIn(t.client(), { username: member.username, password: winner });
    expect(
      (await t.allEvents()).filter((e) => e.type === 'PasswordReset' && e.data.member_id === member.id),
    ).toHaveLength(1);
  });

  it('refuses an unknown or malformed token, and a password the registration would refuse', async () => {
    const { token } = await linkFor('unknown');
    const [id] = token.split('.');
    await expectRefusal(
      () => confirm(t.client(), `${id}.${'A'.repeat(43)}`, 'whatever-secret'),
      422,
      'reset_token_unknown',
    );
    await expectRefusal(() => confirm(t.client(), 'not-a-token', 'whatever-secret'), 422, 'reset_token_unknown');
    await expectRefusal(
      () => confirm(t.client(), `999999.${'A'.repeat(43)}`, 'whatever-secret'),
      422,
      'reset_token_unknown',
    );
    await expectRefusal(() => confirm(t.client(), token, 'short'), 422, 'validation_failed');
    expect((await confirm(t.client(), token, 'long-enough')).status).toBe(200);
  });
});

describe('without SMTP_URL', () => {
  it('answers 200 all the same and says to ask an administrator for a one-time password', async () => {
    const plain = await startPlatform();
    try {
      const client = plain.client();
      const member = await registerMember(client, { email: uniqueEmail('nomail') });
      const config = await client.get(RESET).expect(200);
      expect(config.body.data).toEqual({ mail_configured: false });
      const res = await post(client, RESET, { login: member.username });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ mail_configured: false });
      expect(res.body.message).toMatch(/ask an administrator who manages access to give you a one-time password/);
      await new Promise((r) => setTimeout(r, 200));
      expect((await plain.allEvents()).filter((e) => e.type === 'PasswordResetRequested')).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});

describe('PASSWORD_RESET_ADDRESS_LIMIT', () => {
  const LIMIT = 2;
  let limited: { sink: Sink; t: TestPlatform };
  const agents: Agent[] = [];
  beforeAll(async () => {
    limited = await startWithMail({ PUBLIC_URL: 'https://portal.example.com', PASSWORD_RESET_ADDRESS_LIMIT: LIMIT });
  });
  afterAll(async () => {
    agents.forEach((a) => a.destroy());
    await stopWithMail(limited);
  });

  /** A request for a reset link from this loopback address (supertest's own is 127.0.0.1). */
  async function askFrom(address: string, login: string) {
    const agent = new Agent({ localAddress: address });
    agents.push(agent);
    const client = limited.t.client();
    const { body } = await client.get('/api/v1/developer/session').agent(agent).expect(200);
    return client.post(RESET).agent(agent).set('X-CSRF-Token', body.data.csrf_token).send({ login });
  }

  it(`answers ${LIMIT} requests an hour from one address, then 429 with Retry-After, and mails nothing for the refused one`, async () => {
    const email = uniqueEmail('limited');
    const member = await registerMember(limited.t.client(), { email });
    for (let i = 0; i < LIMIT; i++) expect((await askFrom('127.0.0.31', `nobody-${i}`)).status).toBe(200);

    const res = await refusal(limited.t, () => askFrom('127.0.0.31', member.username), 429, 'too_many_reset_requests');
    expect(res.body.message).toMatch(/too many password-reset requests from this address/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailsTo(limited.sink, email)).toEqual([]);
    expect((await limited.t.allEvents()).filter((e) => e.type === 'PasswordResetRequested')).toEqual([]);

    // Another address is not held up: the member's own request is answered and mailed.
    expect((await askFrom('127.0.0.32', member.username)).status).toBe(200);
    await mailedToken(limited.sink, email);
  });
});
