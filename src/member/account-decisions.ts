import { decideByType, DomainError } from '../shared/domain/decider';
import type { EventOf } from '../shared/domain/events';
import { fieldError } from '../shared/domain/field-error';
import type { accountEventSchemas } from './account-events';
import { expired, MailedLink, Outstanding, spendAll } from '../shared/mailed-links';
import { RESTORE_LIFETIME_DAYS } from './links';

export type AccountCommand =
  | { type: 'RequestPasswordReset'; data: MailedLink }
  | { type: 'ResetPassword'; data: { token_digest: string; password_hash: string; now: string } }
  | { type: 'ChangePassword'; data: { password_hash: string } }
  | { type: 'ResetPasswordByAdministrator'; data: { admin_id: number; password_hash: string } }
  | {
      type: 'UpdateAccount';
      data: { nickname: string | null; email: string | null; mobile: string | null; email_link: MailedLink | null };
    }
  | { type: 'ConfirmEmail'; data: { token_digest: string; now: string; restore_link: MailedLink } }
  | { type: 'RestoreEmail'; data: { token_digest: string; now: string } }
  | { type: 'AcknowledgeAdministratorReset' };

type AccountEvent = EventOf<typeof accountEventSchemas>;

/** What the account's decisions read of a registered member. */
export interface AccountState {
  member_id: number;
  nickname: string | null;
  email: string | null;
  mobile: string | null;
  password_hash: string;
  /** Password-reset links by token digest: until when each is good, or spent. */
  resets: Record<string, Outstanding>;
  /** The address a mailed link must confirm before it counts. */
  pending_email: ({ email: string; token_digest: string } & Outstanding) | null;
  /** The administrator whose reset the member has not acknowledged yet: their account page tells of it. */
  reset_by_administrator: { admin_id: number } | null;
  /**
   * Links mailed to replaced addresses, by token digest. A password change does not spend them: the
   * one who took the account would otherwise spend the owner's way back.
   */
  restores: Record<string, { email: string } & Outstanding>;
}

export function evolveAccount<State extends AccountState>(state: State, event: AccountEvent): State {
  switch (event.type) {
    case 'PasswordResetRequested':
      return {
        ...state,
        resets: { ...state.resets, [event.data.token_digest]: { expires_at: event.data.expires_at, spent: false } },
      };
    case 'PasswordReset':
    case 'PasswordChanged':
      return { ...spendLinks(state), password_hash: event.data.password_hash };
    case 'PasswordResetByAdministrator':
      return {
        ...spendLinks(state),
        password_hash: event.data.password_hash,
        reset_by_administrator: { admin_id: event.data.admin_id },
      };
    case 'AdministratorResetAcknowledged':
      return { ...state, reset_by_administrator: null };
    case 'ProfileUpdated':
      return { ...state, nickname: event.data.nickname, mobile: event.data.mobile };
    case 'EmailChangeRequested':
      return {
        ...state,
        pending_email: {
          email: event.data.email,
          token_digest: event.data.token_digest,
          expires_at: event.data.expires_at,
          spent: false,
        },
      };
    case 'EmailChanged':
      return { ...spendLinks(state), email: event.data.email, pending_email: null };
    case 'EmailRestoreOffered': {
      const { email, token_digest, expires_at } = event.data;
      return { ...state, restores: { ...state.restores, [token_digest]: { email, expires_at, spent: false } } };
    }
    case 'EmailRestored':
      return { ...spendLinks(state), email: event.data.email, pending_email: null, restores: spendAll(state.restores) };
  }
}

/**
 * The account's security stamp: a change of password or address spends every link mailed before
 * it, so a link in a mailbox the member no longer trusts (or an attacker's) is worth nothing.
 */
function spendLinks<State extends AccountState>(state: State): State {
  return {
    ...state,
    resets: spendAll(state.resets),
    pending_email: state.pending_email && { ...state.pending_email, spent: true },
  };
}

type Command<Type extends AccountCommand['type']> = Extract<AccountCommand, { type: Type }>;

type Refusal = [error: string, message: string];

/** The mailed link a request names, if it may be used now; refused as unknown, spent or expired, in that order. */
function usableLink<Link extends Outstanding>(
  link: Link | null | undefined,
  now: string,
  refusals: { unknown: Refusal; spent: Refusal; expired: Refusal },
): Link {
  if (!link) throw new DomainError(...refusals.unknown);
  if (link.spent) throw new DomainError(...refusals.spent);
  if (expired(link, now)) throw new DomainError(...refusals.expired);
  return link;
}

function requestPasswordReset({ data }: Command<'RequestPasswordReset'>, state: AccountState): AccountEvent[] {
  if (state.email === null)
    throw new DomainError('no_email', 'this member gave no e-mail address to mail a reset link to');
  return [{ type: 'PasswordResetRequested', data: { member_id: state.member_id, ...data } }];
}

function resetPassword({ data }: Command<'ResetPassword'>, state: AccountState): AccountEvent[] {
  usableLink(state.resets[data.token_digest], data.now, {
    unknown: ['reset_token_unknown', 'this password-reset link is not one this service mailed: ask for a new one'],
    spent: [
      'reset_token_spent',
      'this password-reset link was already used, or the password or e-mail address changed since it was mailed: ask for a new one',
    ],
    expired: [
      'reset_token_expired',
      'this password-reset link has expired (links are good for 30 minutes): ask for a new one',
    ],
  });
  return [{ type: 'PasswordReset', data: { member_id: state.member_id, password_hash: data.password_hash } }];
}

function changePassword({ data }: Command<'ChangePassword'>, state: AccountState): AccountEvent[] {
  return [{ type: 'PasswordChanged', data: { member_id: state.member_id, password_hash: data.password_hash } }];
}

function resetPasswordByAdministrator(
  { data }: Command<'ResetPasswordByAdministrator'>,
  state: AccountState,
): AccountEvent[] {
  return [{ type: 'PasswordResetByAdministrator', data: { member_id: state.member_id, ...data } }];
}

function confirmEmail({ data }: Command<'ConfirmEmail'>, state: AccountState): AccountEvent[] {
  const member_id = state.member_id;
  const named = state.pending_email?.token_digest === data.token_digest ? state.pending_email : null;
  const pending = usableLink(named, data.now, {
    unknown: [
      'email_token_unknown',
      'this confirmation link was already used, replaced by a newer one, or is not one this service mailed: change the address again for a new one',
    ],
    spent: [
      'email_token_spent',
      'the password changed since this confirmation link was mailed: change the address again for a new one',
    ],
    expired: ['email_token_expired', 'this confirmation link has expired: change the address again for a new one'],
  });
  const changed: AccountEvent = { type: 'EmailChanged', data: { member_id, email: pending.email } };
  // The address replaced is offered a way back, in case the change was not its owner's.
  return state.email === null
    ? [changed]
    : [changed, { type: 'EmailRestoreOffered', data: { member_id, email: state.email, ...data.restore_link } }];
}

function restoreEmail({ data }: Command<'RestoreEmail'>, state: AccountState): AccountEvent[] {
  const restore = usableLink(state.restores[data.token_digest], data.now, {
    unknown: ['restore_token_unknown', 'this link is not one this service mailed to restore an address'],
    spent: [
      'restore_token_spent',
      'this link was already used, or another restore link was: the address is the one restored then',
    ],
    expired: [
      'restore_token_expired',
      `this link has expired (links to restore an address are good for ${RESTORE_LIFETIME_DAYS} days): ask the platform team`,
    ],
  });
  return [{ type: 'EmailRestored', data: { member_id: state.member_id, email: restore.email } }];
}

function acknowledgeAdministratorReset(
  _command: Command<'AcknowledgeAdministratorReset'>,
  state: AccountState,
): AccountEvent[] {
  return state.reset_by_administrator
    ? [{ type: 'AdministratorResetAcknowledged', data: { member_id: state.member_id } }]
    : [];
}

function updateAccount({ data: change }: Command<'UpdateAccount'>, state: AccountState): AccountEvent[] {
  const member_id = state.member_id;
  const events: AccountEvent[] = [];
  if (change.nickname !== state.nickname || change.mobile !== state.mobile) {
    events.push({ type: 'ProfileUpdated', data: { member_id, nickname: change.nickname, mobile: change.mobile } });
  }
  if (change.email === null) {
    // Removing an address needs no confirmation; the registration rule needs a way to reach the member.
    if (change.mobile === null) throw fieldError('contact_required', 'email', 'give at least one of email and mobile');
    if (state.email !== null || state.pending_email)
      events.push({ type: 'EmailChanged', data: { member_id, email: null } });
  } else if (change.email !== state.email) {
    // Asked again for the address already pending: a new link, as the first may be lost.
    if (!change.email_link)
      throw new DomainError(
        'mail_not_configured',
        'a new e-mail address is confirmed by a mailed link, and this service sends no mail: ask the administrator to change it',
      );
    events.push({ type: 'EmailChangeRequested', data: { member_id, email: change.email, ...change.email_link } });
  }
  return events;
}

export const decideAccount = decideByType<AccountCommand, AccountEvent, AccountState>({
  RequestPasswordReset: requestPasswordReset,
  ResetPassword: resetPassword,
  ChangePassword: changePassword,
  ResetPasswordByAdministrator: resetPasswordByAdministrator,
  UpdateAccount: updateAccount,
  ConfirmEmail: confirmEmail,
  RestoreEmail: restoreEmail,
  AcknowledgeAdministratorReset: acknowledgeAdministratorReset,
});
