import request from 'supertest';
import { memberStream } from '../../../src/member/decider';
import { accessPlatformWithMail } from '../../access/http/access-clients';
import { mailedToken, post, uniqueEmail } from '../../member/mailed-links';
import { csrfOf, expectRefusal, registerMember } from '../../support/platform';

// Mail on, so that a member can reset a password by link and confirm a new address.
const p = accessPlatformWithMail({ PASSWORD_RESET_ADDRESS_LIMIT: 10_000 });

const API = '/api/v1';
const history = (memberId: number, asOf?: string) =>
  p.root.get(`/credentials/${memberId}/history${asOf === undefined ? '' : `?as_of=${encodeURIComponent(asOf)}`}`);

async function put(client: request.Agent, path: string, body: object) {
  return client
    .put(path)
    .set('X-CSRF-Token', await csrfOf(client))
    .send(body);
}

/** Waits until the clock has moved past the last event's millisecond, so that the next event is strictly later. */
async function nextMillisecond(): Promise<void> {
  const last = (await p.t.allEvents()).at(-1)!.metadata.time;
  while (new Date().toISOString() <= last) await new Promise((resolve) => setTimeout(resolve, 1));
}

type Listed = {
  type: string;
  time: string;
  stream: string;
  position: string;
  summary: string;
  actor: { kind: string; id: unknown; username: string | null };
};

/**
 * A member who changes everything an account holds, each change by its real actor, with a
 * credential application among them; answers what the history needs to be checked against.
 */
async function accountLivedIn() {
  const browser = p.t.client();
  const member = await registerMember(browser, { email: uniqueEmail('hist'), nickname: 'First' });
  await put(browser, `${API}/developer/account`, { nickname: 'Second', email: member.email }).then((r) =>
    expect(r.status).toBe(200),
  );
  await nextMillisecond();
  await post(browser, `${API}/developer/credential`, {}).then((r) => expect(r.status).toBe(200));
  await nextMillisecond();
  const newEmail = uniqueEmail('moved');
  await put(browser, `${API}/developer/account`, {
    nickname: 'Second',
    email: newEmail,
    current_password: member.password,
  }).then((r) => expect(r.status).toBe(200));
  const emailToken = (await mailedToken(p.sink, newEmail)).token;
  await post(p.t.client(), `${API}/developer/account/confirm-email`, { token: emailToken }).then((r) =>
    expect(r.status).toBe(200),
  );
  await post(browser, `${API}/developer/password`, {
    current_password: member.password,
    new_password: 'changed-secret',
  }).then((r) => expect(r.status).toBe(200));
  await post(p.t.client(), `${API}/developer/password-reset`, { login: member.username });
  // The second link mailed to the new address: the first confirmed it.
  const resetToken = (await mailedToken(p.sink, newEmail, 2)).token;
  await post(p.t.client(), `${API}/developer/password-reset/confirm`, {
    token: resetToken,
    password: 'link-secret',
  }).then((r) => expect(r.status).toBe(200));
  await nextMillisecond();
  const oneTime = (await p.root.post(`/members/${member.id}/password-reset`).expect(200)).body.data.password as string;
  return { member, secrets: [emailToken, resetToken, oneTime, 'changed-secret', 'link-secret', member.password] };
}

describe("GET /credentials/{member_id}/history: the member's account events", () => {
  it('lists every account event among the credential ones, in the order of the log, each by its real actor, and no secret', async () => {
    const { member, secrets } = await accountLivedIn();
    const res = await history(member.id).expect(200);
    const events = res.body.data.events as Listed[];
    const asMember = { kind: 'member', id: member.id, username: member.username };
    const system = { kind: 'system', id: null, username: null };
    const superAdmin = (await p.t.allEvents()).find((e) => e.type === 'AdminCreated' && e.data.username === 'admin')!
      .data.admin_id;
    expect(events.map((e) => [e.type, e.actor])).toEqual([
      ['MemberRegistered', asMember],
      ['ProfileUpdated', asMember],
      ['CredentialApplied', asMember],
      ['EmailChangeRequested', asMember],
      ['EmailChanged', asMember],
      ['EmailRestoreOffered', asMember],
      ['PasswordChanged', asMember],
      ['PasswordResetRequested', system],
      ['PasswordReset', asMember],
      ['PasswordResetByAdministrator', { kind: 'admin', id: superAdmin, username: 'admin' }],
    ]);
    const said = Object.fromEntries(events.map((e) => [e.type, e.summary]));
    expect(said).toMatchObject({
      MemberRegistered: `registered as member ${member.id} with the username ${member.username}`,
      ProfileUpdated: expect.stringContaining('nickname Second'),
      PasswordResetByAdministrator: `administrator ${String(superAdmin)} reset member ${member.id}'s password to a one-time password; every session of theirs ended`,
      PasswordReset: expect.stringContaining('through a mailed reset link'),
    });
    expect(new Set(events.map((e) => e.stream))).toEqual(
      new Set([memberStream(member.username), `credential-${member.id}`]),
    );
    expect([...events.map((e) => e.position)].sort()).toEqual(events.map((e) => e.position));
    for (const secret of [...secrets, 'password_hash', 'token_digest', '$argon2id$'])
      expect(res.text).not.toContain(secret);
  });

  it('with as_of, lists the account events until then, and the credential as it stood: none before the application, pending after', async () => {
    const { member } = await accountLivedIn();
    const all = (await history(member.id).expect(200)).body.data.events as Listed[];
    const timeOf = (type: string) => all.find((e) => e.type === type)!.time;
    const until = (instant: string) => all.filter((e) => e.time <= instant).map((e) => e.type);

    const beforeApplying = new Date(Date.parse(timeOf('CredentialApplied')) - 1).toISOString();
    const before = (await history(member.id, beforeApplying).expect(200)).body.data;
    expect(before.events.map((e: Listed) => e.type)).toEqual(['MemberRegistered', 'ProfileUpdated']);
    expect(before.state.credential.status).toBe('none');

    const afterReset = (await history(member.id, timeOf('PasswordReset')).expect(200)).body.data;
    expect(afterReset.events.map((e: Listed) => e.type)).toEqual(until(timeOf('PasswordReset')));
    expect(afterReset.events.map((e: Listed) => e.type)).not.toContain('PasswordResetByAdministrator');
    expect(afterReset.state).toEqual({
      credential: expect.objectContaining({ status: 'pending' }),
      scopes: [],
      expired: false,
    });
  });

  it("keeps the credential's state readable when an account event is not: that event is listed, marked invalid", async () => {
    const browser = p.t.client();
    const member = await registerMember(browser);
    await post(browser, `${API}/developer/credential`, {}).then((r) => expect(r.status).toBe(200));
    // What a newer release, rolled back, leaves in the log: a type this version does not know.
    const metadata = {
      actor: { kind: 'member' as const, id: member.id },
      request_id: 'rollback',
      time: new Date().toISOString(),
    };
    await p.t.platform.stores.events.append(
      memberStream(member.username),
      [{ type: 'MemberNamedTwice', data: { member_id: member.id }, metadata }],
      'any',
    );
    await nextMillisecond();
    const now = (await history(member.id, new Date().toISOString()).expect(200)).body.data;
    expect(now.state.credential.status).toBe('pending');
    expect(now.events.at(-1)).toMatchObject({
      type: 'MemberNamedTwice',
      invalid: expect.stringContaining('no event of this type'),
    });
  });

  it("answers a member who never applied with their account's events, and 404 member_not_found for an id no member has", async () => {
    const member = await registerMember(p.t.client());
    const res = (await history(member.id).expect(200)).body.data;
    expect(res).toEqual({
      member_id: member.id,
      username: member.username,
      events: [expect.objectContaining({ type: 'MemberRegistered' })],
    });
    const none = await expectRefusal(p.t, () => history(999_999), 404, 'member_not_found');
    expect(none.body.message).toContain('no member has the id 999999');
  });
});
