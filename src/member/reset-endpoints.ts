import { z } from 'zod';
import { endpoint, Endpoint, Refusal } from '../shared/http/endpoints';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { decideThenRead } from '../shared/http/read-your-writes';
import { concurrentChange } from '../shared/http/schemas';
import { resetPassword } from './account';
import { passwordSchema } from './fields';
import { LINK_LIFETIME_MINUTES, tokenSchema } from './links';
import { passwordWorkBusy } from './password-work';
import { requestLater, ResetRequestDeps } from './reset-request';

export interface ResetEndpointDeps extends ResetRequestDeps {
  /** Refuses (429) a client address that asked for too many reset links lately. */
  admitResetRequest(ctx: AppContext): Promise<void>;
}

const mailSchema = z.object({
  mail_configured: z.boolean().meta({
    description:
      'whether the service sends mail (SMTP_URL): without it, an administrator holding access.manage gives a one-time password instead (POST /members/{member_id}/password-reset)',
  }),
});

const tooManyResetRequests: Refusal = {
  status: 429,
  reasons: ['too_many_reset_requests'],
  when: 'too_many_reset_requests: this client address asked for too many reset links lately; retry after Retry-After',
};

const ASKED = `if an account with that username or e-mail address gave an e-mail address, a link to choose a new password is on its way; it works once, within ${LINK_LIFETIME_MINUTES} minutes`;
const NO_MAIL =
  'this service sends no mail: ask an administrator who manages access to give you a one-time password, then change it on your account page';

export function resetEndpoints(deps: ResetEndpointDeps): Endpoint[] {
  const mail_configured = deps.sendMail !== null;
  return [
    endpoint({
      method: 'GET',
      path: '/developer/password-reset',
      caller: { kind: 'anyone' },
      summary: 'Whether a forgotten password can be reset by mail here',
      response: mailSchema,
      handler: () => ({
        data: { mail_configured },
        message: mail_configured ? 'ask for a reset link with POST /developer/password-reset' : NO_MAIL,
      }),
    }),
    endpoint({
      method: 'POST',
      path: '/developer/password-reset',
      caller: { kind: 'anyone' },
      summary:
        'Ask for a password-reset link by mail: the same answer, at the same time, whether the login exists or not',
      body: z.strictObject({
        login: z
          .string({ error: 'login is required: your username or e-mail address' })
          .trim()
          .min(1, 'login is required: your username or e-mail address')
          .max(254, 'login must be at most 254 characters')
          // Trimmed before its length is judged: one character that is no white space, to the contract.
          .meta({ override: { pattern: '\\S' } }),
      }),
      response: mailSchema,
      refusals: [tooManyResetRequests],
      handler: async (ctx, { body }) => {
        await deps.admitResetRequest(ctx);
        // Decided and mailed a while after the answer: it says and takes the same whoever the login names.
        requestLater(deps, body.login, commandContext(ctx, { kind: 'system', id: null }), ctx.state.log);
        return { data: { mail_configured }, message: mail_configured ? ASKED : NO_MAIL };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/password-reset/confirm',
      caller: { kind: 'anyone' },
      summary:
        "Set a new password with a mailed reset link's token: it works once, and every session of the member ends",
      body: z.strictObject({
        token: tokenSchema,
        password: passwordSchema,
      }),
      response: z.object({ username: z.string() }),
      refusals: [
        {
          status: 422,
          reasons: ['reset_token_unknown', 'reset_token_spent', 'reset_token_expired'],
          when: 'the link is unknown, already used, spent by a later change of password or address, or expired (data.error: reset_token_unknown, reset_token_spent, reset_token_expired)',
        },
        passwordWorkBusy,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const reset = await decideThenRead(
          ctx,
          () => resetPassword(deps, body.token, body.password, commandContext(ctx, { kind: 'system', id: null })),
          async (written) => written,
        );
        return {
          data: { username: reset.username },
          message: `password set: sign in as ${reset.username} with it; every session of the account was signed out`,
        };
      },
    }),
  ];
}
