import { adminDecider, adminStream } from './admin';
import { createAdmin, disabledAdmins, NewAdmin } from './admins';
import { invitationMail } from './invitation-mail';
import { Grantor } from './grantor';
import { accessReads } from './reads';
import { DomainError } from '../shared/domain/decider';
import type { PasswordHasher } from '../member';
import type { SendMail } from '../shared/mail';
import { readToken } from '../shared/mailed-links';
import { CommandContext } from '../shared/commands/context';
import { handle } from '../shared/commands/handle';
import { HttpError } from '../shared/http/envelope';
import { ReadModels } from '../shared/projections/read-models';
import { EventStore } from '../stores/ports';

export interface InvitationDeps {
  events: EventStore;
  hasher: PasswordHasher;
  readModels: ReadModels;
  /** Sends through SMTP_URL; null when the service sends no mail: administrators get a one-time password then. */
  sendMail: SendMail | null;
  /** PUBLIC_URL: where the console is reached, for the mailed link. */
  publicUrl: string;
}

/**
 * Creates an administrator; when the service sends mail and they gave an address, invited: the
 * link to choose their password is mailed, and nobody learns the password they are created with.
 */
export async function createInvited(deps: InvitationDeps, admin: NewAdmin, by: Grantor, ctx: CommandContext) {
  const created = await createAdmin(
    deps.events,
    deps.hasher,
    { ...admin, invited: deps.sendMail !== null && Boolean(admin.email) },
    by,
    ctx,
  );
  const { invitation } = created;
  if (invitation && deps.sendMail) {
    const link = `${deps.publicUrl}/ui/admin/invitation?token=${encodeURIComponent(invitation.token)}`;
    await deps.sendMail(invitation.email, invitationMail(admin.username, link)).catch(() => {
      throw new HttpError(
        503,
        'mail_not_sent',
        `administrator ${created.id} is created, but the invitation could not be mailed to ${invitation.email}: reset their password (POST /administrators/${created.id}/password-reset) for a one-time password to hand over`,
      );
    });
  }
  return { id: created.id, position: created.position, invitation_sent_to: invitation?.email ?? null };
}

/**
 * Sets the password an invitation link was mailed for; whoever follows it acts as that
 * administrator. Two uses of one link race on the stream's expected revision: the loser is
 * decided again and finds it spent.
 */
export async function acceptInvitation(
  deps: InvitationDeps,
  token: string,
  password: string,
  ctx: CommandContext,
): Promise<{ username: string; position: string | null }> {
  const read = readToken(token);
  const admin = read && (await accessReads(deps.readModels).admin(read.owner_id));
  if (!read || !admin)
    throw new DomainError(
      'invitation_token_unknown',
      'this invitation link is not one this service mailed: ask an administrator for a new password',
    );
  const password_hash = await deps.hasher.hash(password);
  const disabled = (await disabledAdmins(deps.events)).includes(admin.id);
  const command = {
    type: 'AcceptAdminInvitation',
    data: { token_digest: read.token_digest, password_hash, now: ctx.now.toISOString(), disabled },
  } as const;
  const { position } = await handle(deps.events, adminStream(admin.username), adminDecider, command, {
    ...ctx,
    actor: { kind: 'admin', id: admin.id },
  });
  return { username: admin.username, position };
}
