import { DomainError } from '../shared/domain/decider';
import type { SendMail } from '../shared/mail';
import { CommandContext } from '../shared/commands/context';
import { handle } from '../shared/commands/handle';
import { ReadModels } from '../shared/projections/read-models';
import { EventStore, SessionStore } from '../stores/ports';
import { AccountCommand } from './account-decisions';
import { emailConfirmationMail, emailReplacedMail } from './account-mail';
import { memberDecider, memberStream, MemberEvent } from './decider';
import { AccountChange } from './fields';
import { newMemberLink, newRestoreLink } from './links';
import { readToken } from '../shared/mailed-links';
import { memberFromLog } from './login';
import { oneTimePassword, PasswordHasher } from './passwords';
import { memberReads } from './reads';

/** What the member's own account commands need. */
export interface AccountDeps {
  events: EventStore;
  hasher: PasswordHasher;
  readModels: ReadModels;
  sessions: SessionStore;
  /** Sends through SMTP_URL; null when the service sends no mail. */
  sendMail: SendMail | null;
  /** PUBLIC_URL: where the console is reached, for the mailed links. */
  publicUrl: string;
}

export interface AccountWritten {
  position: string | null;
  events: MemberEvent[];
}

/** The mail confirming a new address was not taken by the SMTP server; the address is pending. */
export class MailNotSent extends Error {
  constructor(cause: unknown) {
    super('the confirmation mail could not be sent', { cause });
    this.name = 'MailNotSent';
  }
}

/**
 * The member a mailed token names, and the context to decide with: whoever follows the link acts
 * as that member. Refused as `unknown` when no member has that id.
 */
async function memberOfToken(deps: AccountDeps, token: string, unknown: DomainError, ctx: CommandContext) {
  const read = readToken(token);
  const member = read && (await memberReads(deps.readModels).member(read.owner_id));
  if (!read || !member) throw unknown;
  return {
    username: member.username,
    token_digest: read.token_digest,
    ctx: { ...ctx, actor: { kind: 'member' as const, id: member.id } },
  };
}

async function decide(
  deps: AccountDeps,
  username: string,
  command: AccountCommand,
  ctx: CommandContext,
): Promise<AccountWritten> {
  const { events, position } = await handle(deps.events, memberStream(username), memberDecider, command, ctx);
  return { events, position };
}

/**
 * Sets the password a mailed reset link was for, and ends every session of the member. Two uses
 * of one link race on the stream's expected revision: the loser is decided again and finds it spent.
 */
export async function resetPassword(
  deps: AccountDeps,
  token: string,
  password: string,
  ctx: CommandContext,
): Promise<AccountWritten & { username: string }> {
  const unknown = new DomainError(
    'reset_token_unknown',
    'this password-reset link is not one this service mailed: ask for a new one',
  );
  const { username, token_digest, ctx: asMember } = await memberOfToken(deps, token, unknown, ctx);
  const password_hash = await deps.hasher.hash(password);
  const written = await decide(
    deps,
    username,
    { type: 'ResetPassword', data: { token_digest, password_hash, now: ctx.now.toISOString() } },
    asMember,
  );
  const memberId = written.events[0]!.data.member_id;
  await deps.sessions.endAllOf({ side: 'member', id: memberId });
  return { ...written, username };
}

/** A new password for a member who knows the current one; the caller checked it (passwordCheck). */
export async function changePassword(
  deps: AccountDeps,
  username: string,
  newPassword: string,
  keepSession: string | undefined,
  ctx: CommandContext,
): Promise<AccountWritten & { sessionsEnded: number }> {
  const password_hash = await deps.hasher.hash(newPassword);
  const written = await decide(deps, username, { type: 'ChangePassword', data: { password_hash } }, ctx);
  const sessionsEnded = await deps.sessions.endAllOf(
    { side: 'member', id: written.events[0]!.data.member_id },
    keepSession,
  );
  return { ...written, sessionsEnded };
}

/**
 * A one-time password an administrator gives a member (who forgot theirs where no reset link can be
 * mailed): only its hash is recorded, every outstanding reset link is spent and every session of
 * the member ends. The password is answered to be handed over, and kept nowhere.
 */
export async function resetPasswordByAdministrator(
  deps: AccountDeps,
  username: string,
  admin_id: number,
  ctx: CommandContext,
): Promise<AccountWritten & { password: string }> {
  const password = oneTimePassword();
  const password_hash = await deps.hasher.hash(password);
  const written = await decide(
    deps,
    username,
    { type: 'ResetPasswordByAdministrator', data: { admin_id, password_hash } },
    ctx,
  );
  await deps.sessions.endAllOf({ side: 'member', id: written.events[0]!.data.member_id });
  return { ...written, password };
}

/** Nickname and mobile count at once; a new e-mail address once the link mailed to it is followed. */
export async function updateAccount(
  deps: AccountDeps,
  username: string,
  change: AccountChange,
  ctx: CommandContext,
): Promise<AccountWritten> {
  const found = await memberFromLog(deps.events, username);
  const mailed =
    found && deps.sendMail && change.email !== undefined ? newMemberLink(found.state.member_id, ctx.now) : null;
  const command: AccountCommand = {
    type: 'UpdateAccount',
    data: {
      nickname: change.nickname ?? null,
      email: change.email ?? null,
      mobile: change.mobile ?? null,
      email_link: mailed?.link ?? null,
    },
  };
  const written = await decide(deps, username, command, ctx);
  const requested = written.events.find((event) => event.type === 'EmailChangeRequested');
  if (requested && mailed && deps.sendMail) {
    const link = `${deps.publicUrl}/ui/developer/confirm-email?token=${encodeURIComponent(mailed.token)}`;
    await deps.sendMail(requested.data.email, emailConfirmationMail(username, link)).catch((err: unknown) => {
      throw new MailNotSent(err);
    });
  }
  return written;
}

/**
 * Makes the pending address the account's; the address it replaces is mailed a link that puts it
 * back. Whether that mail went is answered (`replaced_told`): the change stands either way.
 */
export async function confirmEmail(
  deps: AccountDeps,
  token: string,
  ctx: CommandContext,
): Promise<AccountWritten & { username: string; replaced_told: boolean }> {
  const unknown = new DomainError(
    'email_token_unknown',
    'this confirmation link is not one this service mailed: change the address again for a new one',
  );
  const { username, token_digest, ctx: asMember } = await memberOfToken(deps, token, unknown, ctx);
  const restore = newRestoreLink(asMember.actor.id, ctx.now);
  const written = await decide(
    deps,
    username,
    { type: 'ConfirmEmail', data: { token_digest, now: ctx.now.toISOString(), restore_link: restore.link } },
    asMember,
  );
  const offered = written.events.find((event) => event.type === 'EmailRestoreOffered');
  const changed = written.events.find((event) => event.type === 'EmailChanged');
  let replaced_told = false;
  if (offered && changed?.data.email && deps.sendMail) {
    const link = `${deps.publicUrl}/ui/developer/restore-email?token=${encodeURIComponent(restore.token)}`;
    replaced_told = await deps.sendMail(offered.data.email, emailReplacedMail(username, changed.data.email, link)).then(
      () => true,
      () => false,
    );
  }
  return { ...written, username, replaced_told };
}

/** Puts back an address an e-mail change replaced, with the link mailed to it; every session of the member ends. */
export async function restoreEmail(
  deps: AccountDeps,
  token: string,
  ctx: CommandContext,
): Promise<AccountWritten & { username: string }> {
  const unknown = new DomainError(
    'restore_token_unknown',
    'this link is not one this service mailed to restore an address',
  );
  const { username, token_digest, ctx: asMember } = await memberOfToken(deps, token, unknown, ctx);
  const written = await decide(
    deps,
    username,
    { type: 'RestoreEmail', data: { token_digest, now: ctx.now.toISOString() } },
    asMember,
  );
  await deps.sessions.endAllOf({ side: 'member', id: asMember.actor.id });
  return { ...written, username };
}

/** The member saw that an administrator reset their password: their account page stops telling of it. */
export function acknowledgeAdministratorReset(
  deps: AccountDeps,
  username: string,
  ctx: CommandContext,
): Promise<AccountWritten> {
  return decide(deps, username, { type: 'AcknowledgeAdministratorReset' }, ctx);
}
