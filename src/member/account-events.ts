import { z } from 'zod';
import type { EventDefinition } from '../shared/slice';
import { administratorResetMail } from './account-mail';

/**
 * What a member's account records after registration. No event holds a token: a mailed link is
 * stored as its SHA-256 digest (`token_digest`), and a password only as its Argon2id hash
 * (`password_hash`), as at registration; the audit answers leave both out by name
 * (src/shared/domain/chain.ts).
 */
const memberId = z.int().min(1);
const until = z.iso.datetime({ offset: true });

export const accountEventSchemas = {
  PasswordResetRequested: z.object({ member_id: memberId, token_digest: z.string(), expires_at: until }),
  PasswordReset: z.object({ member_id: memberId, password_hash: z.string() }),
  PasswordChanged: z.object({ member_id: memberId, password_hash: z.string() }),
  /** A one-time password an administrator holding access.manage gave the member; `admin_id` is that administrator. */
  PasswordResetByAdministrator: z.object({ member_id: memberId, admin_id: z.int().min(1), password_hash: z.string() }),
  /** The member saw, on their account page, that an administrator had reset their password. */
  AdministratorResetAcknowledged: z.object({ member_id: memberId }),
  ProfileUpdated: z.object({ member_id: memberId, nickname: z.string().nullable(), mobile: z.string().nullable() }),
  EmailChangeRequested: z.object({
    member_id: memberId,
    email: z.string(),
    token_digest: z.string(),
    expires_at: until,
  }),
  EmailChanged: z.object({ member_id: memberId, email: z.string().nullable() }),
  /** The address an e-mail change replaced was mailed a link that puts it back (`token_digest`), good until `expires_at`. */
  EmailRestoreOffered: z.object({
    member_id: memberId,
    email: z.string(),
    token_digest: z.string(),
    expires_at: until,
  }),
  EmailRestored: z.object({ member_id: memberId, email: z.string() }),
};

const shown = (value: unknown) => (typeof value === 'string' && value !== '' ? value : 'none');

/** How the audit timeline and export tell each decision. */
export const accountWording: Record<keyof typeof accountEventSchemas, Omit<EventDefinition, 'schema' | 'upcasters'>> = {
  PasswordResetRequested: {
    describe: (data) =>
      `a password-reset link was mailed to member ${String(data.member_id)}, good until ${String(data.expires_at)}`,
  },
  PasswordReset: {
    describe: (data) =>
      `member ${String(data.member_id)} set a new password through a mailed reset link; every session of theirs ended`,
  },
  PasswordChanged: {
    describe: (data) => `member ${String(data.member_id)} changed their password; their other sessions ended`,
  },
  PasswordResetByAdministrator: {
    describe: (data) =>
      `administrator ${String(data.admin_id)} reset member ${String(data.member_id)}'s password to a one-time password; every session of theirs ended`,
    mail: administratorResetMail,
  },
  AdministratorResetAcknowledged: {
    describe: (data) => `member ${String(data.member_id)} acknowledged that an administrator had reset their password`,
  },
  ProfileUpdated: {
    describe: (data) =>
      `member ${String(data.member_id)} updated their profile: nickname ${shown(data.nickname)}, mobile ${shown(data.mobile)}`,
  },
  EmailChangeRequested: {
    describe: (data) =>
      `member ${String(data.member_id)} asked to change their e-mail address to ${String(data.email)}; a confirmation link was mailed there`,
  },
  EmailChanged: {
    describe: (data) =>
      data.email === null
        ? `member ${String(data.member_id)} removed their e-mail address`
        : `member ${String(data.member_id)} confirmed their e-mail address ${String(data.email)}`,
  },
  EmailRestoreOffered: {
    describe: (data) =>
      `the replaced address ${String(data.email)} of member ${String(data.member_id)} was mailed a notice with a link that restores it, good until ${String(data.expires_at)}`,
  },
  EmailRestored: {
    describe: (data) =>
      `member ${String(data.member_id)}'s e-mail address ${String(data.email)} was restored through the link mailed to it; every session of theirs ended`,
  },
};
