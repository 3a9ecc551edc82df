import { memberDecider, MemberEvent, MemberProfile } from '../../src/member/decider';
import { given } from '../support/decider-spec';
import { memberEvents } from './events';

const profile: MemberProfile = {
  member_id: 7,
  username: 'Alice',
  nickname: null,
  email: 'alice@example.com',
  mobile: null,
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
};
const NEW_HASH = '$argon2id$v=19$m=19456,t=2,p=1$bmV3c2FsdA$bmV3aGFzaA';
const requested: MemberEvent = {
  type: 'PasswordResetRequested',
  data: { member_id: 7, token_digest: 'd1', expires_at: '2026-11-28T10:30:00.000Z' },
};
const restoreLink = { token_digest: 'r1', expires_at: '2026-12-05T10:00:00.000Z' };
const restoreOffered: MemberEvent = {
  type: 'EmailRestoreOffered',
  data: { member_id: 7, email: 'alice@example.com', ...restoreLink },
};
const reset = (now: string) => ({
  type: 'ResetPassword' as const,
  data: { token_digest: 'd1', password_hash: NEW_HASH, now },
});

describe('member decider: password reset, with the clock on the command', () => {
  it('sets the password with a link still good', () => {
    given(memberDecider, [memberEvents.registered(profile), requested])
      .when(reset('2026-11-28T10:29:59.999Z'))
      .then([{ type: 'PasswordReset', data: { member_id: 7, password_hash: NEW_HASH } }]);
  });

  it('refuses a link at or after its expiry', () => {
    given(memberDecider, [memberEvents.registered(profile), requested])
      .when(reset('2026-11-28T10:30:00.000Z'))
      .thenRefuses('reset_token_expired');
  });

  it('refuses a link once used, and once the password changed otherwise', () => {
    const used: MemberEvent = { type: 'PasswordReset', data: { member_id: 7, password_hash: NEW_HASH } };
    const changed: MemberEvent = { type: 'PasswordChanged', data: { member_id: 7, password_hash: NEW_HASH } };
    given(memberDecider, [memberEvents.registered(profile), requested, used])
      .when(reset('2026-11-28T10:00:00.000Z'))
      .thenRefuses('reset_token_spent');
    given(memberDecider, [memberEvents.registered(profile), requested, changed])
      .when(reset('2026-11-28T10:00:00.000Z'))
      .thenRefuses('reset_token_spent');
  });

  it('lets an administrator give a one-time password, which spends an outstanding link; a member that does not exist is not found', () => {
    const byAdmin = { type: 'ResetPasswordByAdministrator' as const, data: { admin_id: 3, password_hash: NEW_HASH } };
    const handedOver: MemberEvent = {
      type: 'PasswordResetByAdministrator',
      data: { member_id: 7, admin_id: 3, password_hash: NEW_HASH },
    };
    given(memberDecider, [memberEvents.registered(profile), requested])
      .when(byAdmin)
      .then([handedOver]);
    given(memberDecider, [memberEvents.registered(profile), requested, handedOver])
      .when(reset('2026-11-28T10:00:00.000Z'))
      .thenRefuses('reset_token_spent');
    given(memberDecider, []).when(byAdmin).thenRefuses('member_not_found');
  });

  it('refuses a link it never mailed, and mails none to a member without an address', () => {
    given(memberDecider, [memberEvents.registered(profile)])
      .when(reset('2026-11-28T10:00:00.000Z'))
      .thenRefuses('reset_token_unknown');
    given(memberDecider, [memberEvents.registered({ ...profile, email: null, mobile: '+8613800138000' })])
      .when({ type: 'RequestPasswordReset', data: { token_digest: 'd2', expires_at: '2026-11-28T10:30:00.000Z' } })
      .thenRefuses('no_email');
  });
});

describe('member decider: e-mail change', () => {
  const link = { token_digest: 'e1', expires_at: '2026-11-28T10:30:00.000Z' };
  const asked: MemberEvent = {
    type: 'EmailChangeRequested',
    data: { member_id: 7, email: 'new@example.com', ...link },
  };
  const change = (email: string | null, mobile: string | null = null) => ({
    type: 'UpdateAccount' as const,
    data: { nickname: null, email, mobile, email_link: link },
  });

  it('asks for confirmation of a new address, and changes nothing that stayed', () => {
    given(memberDecider, [memberEvents.registered(profile)])
      .when(change('new@example.com'))
      .then([asked]);
    given(memberDecider, [memberEvents.registered(profile)])
      .when(change('alice@example.com'))
      .then([]);
  });

  it('confirms the pending address with its link before it expires, not after', () => {
    const confirm = (now: string) => ({
      type: 'ConfirmEmail' as const,
      data: { token_digest: 'e1', now, restore_link: restoreLink },
    });
    given(memberDecider, [memberEvents.registered(profile), asked])
      .when(confirm('2026-11-28T10:00:00.000Z'))
      .then([{ type: 'EmailChanged', data: { member_id: 7, email: 'new@example.com' } }, restoreOffered]);
    given(memberDecider, [memberEvents.registered(profile), asked])
      .when(confirm('2026-11-28T11:00:00.000Z'))
      .thenRefuses('email_token_expired');
  });

  it('removes an address at once when a mobile remains, and refuses to leave neither', () => {
    given(memberDecider, [memberEvents.registered(profile)])
      .when(change(null, '+8613800138000'))
      .then([
        { type: 'ProfileUpdated', data: { member_id: 7, nickname: null, mobile: '+8613800138000' } },
        { type: 'EmailChanged', data: { member_id: 7, email: null } },
      ]);
    const refused = given(memberDecider, [memberEvents.registered(profile)])
      .when(change(null))
      .thenRefuses('contact_required');
    // One shape for "this field is wrong": the field named, as the registration's own rule names it.
    expect(refused.problems).toEqual([{ path: 'email', message: 'give at least one of email and mobile' }]);
  });

  it('refuses a new address when no mail can confirm it', () => {
    given(memberDecider, [memberEvents.registered(profile)])
      .when({
        type: 'UpdateAccount',
        data: { nickname: null, email: 'new@example.com', mobile: null, email_link: null },
      })
      .thenRefuses('mail_not_configured');
  });
});

describe('member decider: one security stamp per account', () => {
  const asked: MemberEvent = {
    type: 'EmailChangeRequested',
    data: { member_id: 7, email: 'new@example.com', token_digest: 'e1', expires_at: '2026-11-28T10:30:00.000Z' },
  };
  const confirm = {
    type: 'ConfirmEmail' as const,
    data: { token_digest: 'e1', now: '2026-11-28T10:00:00.000Z', restore_link: restoreLink },
  };
  const confirmed: MemberEvent = { type: 'EmailChanged', data: { member_id: 7, email: 'other@example.com' } };
  const passwordChanges: MemberEvent[] = [
    { type: 'PasswordChanged', data: { member_id: 7, password_hash: NEW_HASH } },
    { type: 'PasswordReset', data: { member_id: 7, password_hash: NEW_HASH } },
    { type: 'PasswordResetByAdministrator', data: { member_id: 7, admin_id: 3, password_hash: NEW_HASH } },
  ];

  it('spends a reset link mailed to the old address once a new address is confirmed', () => {
    given(memberDecider, [memberEvents.registered(profile), requested, confirmed])
      .when(reset('2026-11-28T10:00:00.000Z'))
      .thenRefuses('reset_token_spent');
  });

  it.each(passwordChanges.map((event) => [event.type, event] as const))(
    'spends a pending confirmation link once the password changes (%s)',
    (_, event) => {
      given(memberDecider, [memberEvents.registered(profile), asked, event])
        .when(confirm)
        .thenRefuses('email_token_spent');
    },
  );

  it('a new confirmation link asked after the change is good', () => {
    given(memberDecider, [memberEvents.registered(profile), asked, passwordChanges[0]!, asked])
      .when(confirm)
      .then([{ type: 'EmailChanged', data: { member_id: 7, email: 'new@example.com' } }, restoreOffered]);
  });
});

describe('member decider: restoring a replaced address', () => {
  const changed: MemberEvent = { type: 'EmailChanged', data: { member_id: 7, email: 'taker@example.com' } };
  const taken = [memberEvents.registered(profile), changed, restoreOffered];
  const restore = (now: string) => ({ type: 'RestoreEmail' as const, data: { token_digest: 'r1', now } });

  it('puts the address back within 7 days, even after the password changed, once', () => {
    const newPassword: MemberEvent = { type: 'PasswordChanged', data: { member_id: 7, password_hash: NEW_HASH } };
    const restored: MemberEvent = { type: 'EmailRestored', data: { member_id: 7, email: 'alice@example.com' } };
    given(memberDecider, [...taken, newPassword])
      .when(restore('2026-12-05T09:59:59.999Z'))
      .then([restored]);
    given(memberDecider, [...taken, restored])
      .when(restore('2026-12-01T00:00:00.000Z'))
      .thenRefuses('restore_token_spent');
    given(memberDecider, taken).when(restore('2026-12-05T10:00:00.000Z')).thenRefuses('restore_token_expired');
    given(memberDecider, [memberEvents.registered(profile)])
      .when(restore('2026-12-01T00:00:00.000Z'))
      .thenRefuses('restore_token_unknown');
  });

  it('offers nothing to restore when the account had no address', () => {
    const noAddress = { ...profile, email: null, mobile: '+8613800138000' };
    const asked: MemberEvent = {
      type: 'EmailChangeRequested',
      data: { member_id: 7, email: 'new@example.com', token_digest: 'e1', expires_at: '2026-11-28T10:30:00.000Z' },
    };
    given(memberDecider, [memberEvents.registered(noAddress), asked])
      .when({
        type: 'ConfirmEmail',
        data: { token_digest: 'e1', now: '2026-11-28T10:00:00.000Z', restore_link: restoreLink },
      })
      .then([{ type: 'EmailChanged', data: { member_id: 7, email: 'new@example.com' } }]);
  });
});
