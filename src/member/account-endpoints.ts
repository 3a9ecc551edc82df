import { z } from 'zod';
import { Refusal, endpoint, Endpoint } from '../shared/http/endpoints';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { HttpError } from '../shared/http/envelope';
import { memberOf } from '../shared/http/guards';
import { decideThenRead } from '../shared/http/read-your-writes';
import { concurrentChange } from '../shared/http/schemas';
import { passwordChanged, sessionOf, thisSessionRecord } from '../shared/http/session';
import { emptyBody } from '../shared/http/validate';
import {
  AccountDeps,
  acknowledgeAdministratorReset,
  changePassword,
  confirmEmail,
  MailNotSent,
  restoreEmail,
  updateAccount,
} from './account';
import type { CountedLimit } from '../shared/http/password-failures';
import { admitEmailChange, EmailChangeDeps, emailChangeRefusals } from './email-change';
import { memberFromLog } from './login';
import { accountChangeSchema, passwordSchema } from './fields';
import { tokenSchema } from './links';
import { passwordWorkBusy } from './password-work';
import { checkMemberPassword } from './password-check';
import { tooManyPasswordFailures } from '../shared/http/password-failures';
import { memberReads } from './reads';

export interface AccountEndpointDeps extends AccountDeps, EmailChangeDeps {
  /** Wrong current passwords per member, limited as logins are. */
  passwordChecks: CountedLimit;
}

const accountSchema = z
  .object({
    id: z.int().min(1),
    username: z.string(),
    nickname: z.string().nullable(),
    email: z.string().nullable().meta({ description: 'the confirmed address: the one mail goes to' }),
    pending_email: z
      .string()
      .nullable()
      .meta({ description: 'an address waiting for its mailed confirmation link to be followed' }),
    mobile: z.string().nullable(),
    password_reset_by: z
      .object({ admin_id: z.int().min(1) })
      .nullable()
      .meta({
        description:
          'the administrator who last gave the member a one-time password, until the member acknowledges it (POST /developer/account/acknowledge-reset)',
      }),
  })
  .meta({ id: 'Account' });

const sessionsEndedSchema = z.object({
  sessions_ended: z.int().min(0).meta({ description: "how many of the member's other sessions ended" }),
});

/** How many other sessions a change signed out, in words: none, one, or the count. */
export const sessionsSignedOut = (ended: number): string =>
  ended === 0
    ? 'no other session was signed in'
    : ended === 1
      ? '1 other session signed out'
      : `${ended} other sessions signed out`;

const mailNotSent: Refusal = {
  status: 503,
  reasons: ['mail_not_sent'],
  when: 'mail_not_sent: the confirmation mail could not be sent; the address is pending: save it again for a new link',
};
const linkRefused: Refusal = {
  status: 422,
  reasons: ['email_token_unknown', 'email_token_spent', 'email_token_expired'],
  when: 'the link is unknown, already used, replaced, spent by a password change, or expired (data.error: email_token_unknown, email_token_spent, email_token_expired)',
};

export function accountEndpoints(deps: AccountEndpointDeps): Endpoint[] {
  const account = async (ctx: AppContext, after: string | null = sessionOf(ctx).position ?? null) => {
    const member = await memberReads(deps.readModels).member(memberOf(ctx).id, after);
    if (!member)
      throw new HttpError(401, 'session_expired', 'this session names a member that does not exist: log in again');
    const { id, username, nickname, email, mobile } = member;
    // From the member's own stream: an administrator's reset is told even while a read model rebuilds.
    const password_reset_by = (await memberFromLog(deps.events, username))?.state.reset_by_administrator ?? null;
    return { id, username, nickname, email, pending_email: member.pending_email ?? null, mobile, password_reset_by };
  };
  const asMember = (ctx: AppContext) => commandContext(ctx, { kind: 'member', id: memberOf(ctx).id });
  return [
    endpoint({
      method: 'GET',
      path: '/developer/account',
      caller: { kind: 'member' },
      summary: "The member's own account: nickname, e-mail address (and one waiting for confirmation), mobile",
      response: accountSchema,
      handler: async (ctx) => ({ data: await account(ctx) }),
    }),
    endpoint({
      method: 'PUT',
      path: '/developer/account',
      caller: { kind: 'member' },
      summary:
        'Change nickname, e-mail address and mobile, by the registration rules; a new address needs current_password, and counts once the link mailed to it is followed',
      body: accountChangeSchema,
      response: accountSchema,
      refusals: [
        {
          status: 422,
          reasons: ['mail_not_configured', 'contact_required'],
          when: 'a new e-mail address while the service sends no mail (mail_not_configured), or neither email nor mobile left (contact_required, data.issues names email)',
        },
        ...emailChangeRefusals,
        passwordWorkBusy,
        mailNotSent,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        await admitEmailChange(ctx, deps, memberOf(ctx), body);
        const update = async () => {
          try {
            return await updateAccount(deps, memberOf(ctx).username, body, asMember(ctx));
          } catch (err) {
            if (!(err instanceof MailNotSent)) throw err;
            throw new HttpError(
              503,
              'mail_not_sent',
              'the new address is recorded as pending, but the mail to confirm it could not be sent: save it again for a new link',
            );
          }
        };
        const data = await decideThenRead(ctx, update, (written) => account(ctx, written.position));
        const message =
          data.pending_email && data.pending_email !== data.email
            ? `saved: follow the link mailed to ${data.pending_email} to use it`
            : 'saved';
        return { data, message };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/account/confirm-email',
      caller: { kind: 'anyone' },
      summary: 'Confirm a new e-mail address with the token of the link mailed to it',
      body: z.strictObject({ token: tokenSchema }),
      response: z.object({ username: z.string(), email: z.string() }),
      refusals: [linkRefused, concurrentChange],
      handler: async (ctx, { body }) => {
        const confirmed = await decideThenRead(
          ctx,
          () => confirmEmail(deps, body.token, commandContext(ctx, { kind: 'system', id: null })),
          async (written) => written,
        );
        const changed = confirmed.events.find((event) => event.type === 'EmailChanged');
        const email = changed?.type === 'EmailChanged' ? changed.data.email : null;
        const told = confirmed.replaced_told ? '; the address it replaces was mailed a link that restores it' : '';
        return {
          data: { username: confirmed.username, email: email ?? '' },
          message: `confirmed: mail now goes to ${email}${told}`,
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/account/restore-email',
      caller: { kind: 'anyone' },
      summary:
        'Put back an e-mail address a change replaced, with the token of the link mailed to it (good for 7 days); every session of the member ends',
      body: z.strictObject({ token: tokenSchema }),
      response: z.object({ username: z.string(), email: z.string() }),
      refusals: [
        {
          status: 422,
          reasons: ['restore_token_unknown', 'restore_token_spent', 'restore_token_expired'],
          when: 'the link is unknown, already used (or another restore link was) or expired (data.error: restore_token_unknown, restore_token_spent, restore_token_expired)',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const restored = await decideThenRead(
          ctx,
          () => restoreEmail(deps, body.token, commandContext(ctx, { kind: 'system', id: null })),
          async (written) => written,
        );
        const event = restored.events.find((e) => e.type === 'EmailRestored');
        const email = event?.type === 'EmailRestored' ? event.data.email : '';
        return {
          data: { username: restored.username, email },
          message: `restored: mail goes to ${email} again and every session was signed out; now ask for a password-reset link`,
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/account/acknowledge-reset',
      caller: { kind: 'member' },
      summary:
        "Acknowledge that an administrator reset the member's password: the account stops telling of it (nothing is recorded when there was nothing to acknowledge)",
      body: emptyBody,
      response: accountSchema,
      refusals: [concurrentChange],
      handler: async (ctx) => {
        const acknowledge = () => acknowledgeAdministratorReset(deps, memberOf(ctx).username, asMember(ctx));
        return {
          data: await decideThenRead(ctx, acknowledge, (written) => account(ctx, written.position)),
          message: 'acknowledged',
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/password',
      caller: { kind: 'member' },
      beforePasswordChange: true,
      summary:
        "Change the member's password, given the current one; the member's other sessions end, this one stays (the current password again changes nothing)",
      body: z.strictObject({
        current_password: z
          .string({ error: 'current_password is required' })
          .min(1, 'current_password is required')
          .max(128, 'current_password must be at most 128 characters'),
        new_password: passwordSchema,
      }),
      response: sessionsEndedSchema,
      refusals: [
        {
          status: 422,
          reasons: ['wrong_current_password'],
          when: 'the current password is wrong (wrong_current_password); nothing changes',
        },
        tooManyPasswordFailures,
        passwordWorkBusy,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const member = memberOf(ctx);
        await checkMemberPassword(ctx, deps, member, body.current_password);
        // The same password again is no change: it records nothing and ends no session.
        if (body.new_password === body.current_password)
          return { data: { sessions_ended: 0 }, message: 'the new password is the current one: nothing changed' };
        const ended = await decideThenRead(
          ctx,
          () => changePassword(deps, member.username, body.new_password, thisSessionRecord(ctx), asMember(ctx)),
          async (written) => written.sessionsEnded,
        );
        passwordChanged(ctx, 'member');
        return { data: { sessions_ended: ended }, message: `password changed; ${sessionsSignedOut(ended)}` };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/sessions/end-others',
      caller: { kind: 'member' },
      summary: 'Sign out everywhere else: every other session of the member ends, this one stays',
      body: emptyBody,
      response: sessionsEndedSchema,
      handler: async (ctx) => {
        const ended = await deps.sessions.endAllOf({ side: 'member', id: memberOf(ctx).id }, thisSessionRecord(ctx));
        return { data: { sessions_ended: ended }, message: sessionsSignedOut(ended) };
      },
    }),
  ];
}
