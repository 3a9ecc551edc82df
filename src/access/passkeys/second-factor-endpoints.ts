import { z } from 'zod';
import { assertionRefusals } from './assertion-refusals';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import type { AppContext } from '../../shared/http/context';
import { commandContext } from '../../shared/http/command-context';
import { HttpError } from '../../shared/http/envelope';
import { rememberPosition } from '../../shared/http/session';
import {
  completePendingSignIn,
  noPendingSignIn,
  requirePendingSignIn,
  SECOND_FACTOR_PATHS,
  SignInSide,
} from '../../shared/http/pending-sign-in';
import { AuthenticationFailed } from '../../shared/commands/errors';
import { refusedAs } from '../role-group-endpoints';
import { recordSignIn } from '../access-log';
import { authenticationOptions, authenticationResponseSchema, ceremonyOptionsSchema, takeChallenge } from './ceremony';
import type { PasskeySignInDeps } from './sign-in-endpoints';
import { checkAssertion } from './sign-in';
import { passkeysOf, recordPasskeyUse } from './passkeys';

const identitySchema = z.object({ id: z.int().min(1), username: z.string() });

/**
 * A passkey as the second factor of a password sign-in (docs/accounts.md): beside the code and the
 * recovery code of `POST …/login/second-factor`, under it, the pending sign-in's account's own
 * passkeys offered. A wrong signature counts in the login limits, as a wrong code does.
 */
export function secondFactorEndpoints(deps: PasskeySignInDeps, side: SignInSide): Endpoint[] {
  const base = `${SECOND_FACTOR_PATHS[side]}/passkey`;
  const purpose = `${side}-second-factor`;
  const accountOf = (ctx: AppContext) => ({ side, id: requirePendingSignIn(ctx, side).identity.id });
  return [
    endpoint({
      method: 'POST',
      path: `${base}/options`,
      caller: { kind: 'anyone' },
      summary: "Begin completing a pending sign-in with a passkey: options naming the account's own passkeys",
      response: ceremonyOptionsSchema,
      refusals: [
        noPendingSignIn,
        { status: 404, reasons: ['no_passkey'], when: 'no_passkey: the account signing in has no passkey' },
      ],
      handler: async (ctx) => {
        const { passkeys } = await passkeysOf(deps.events, accountOf(ctx));
        if (passkeys.length === 0) {
          throw new HttpError(
            404,
            'no_passkey',
            `this account has no passkey: complete the sign-in at ${SECOND_FACTOR_PATHS[side]}`,
          );
        }
        return { data: await authenticationOptions(ctx, deps.relyingParty, purpose, passkeys) };
      },
    }),
    endpoint({
      method: 'POST',
      path: base,
      caller: { kind: 'anyone' },
      summary: 'Complete a pending sign-in with a passkey: a new session id and a new CSRF token',
      body: z.strictObject({ response: authenticationResponseSchema }),
      response: identitySchema,
      login: side,
      loginStep: 'second-factor',
      movesSession: true,
      refusals: [
        noPendingSignIn,
        {
          status: 401,
          reasons: ['passkey_not_accepted'],
          when: "passkey_not_accepted: not one of the account's passkeys, or its signature is wrong",
        },
        ...assertionRefusals,
      ],
      handler: async (ctx, { body: { response } }) => {
        const account = accountOf(ctx);
        const challenge = takeChallenge(ctx, purpose, `${base}/options`);
        const pending = requirePendingSignIn(ctx, side).identity;
        const checked = await checkAssertion(deps.events, deps.relyingParty, challenge, response, account).catch(
          async (err: unknown) => {
            if (err instanceof AuthenticationFailed && side === 'admin')
              await deps.signInFailures.count(pending.username, ctx.ip, new Date());
            throw err;
          },
        );
        const asOwner = commandContext(ctx, { kind: side, id: account.id });
        await refusedAs({ passkey_challenge_used: 409, passkey_not_found: 409 }, () =>
          recordPasskeyUse(deps.events, account, { ...checked, purpose: 'second_factor' }, asOwner),
        );
        const { identity } = await completePendingSignIn(ctx, side);
        if (side === 'admin') {
          rememberPosition(ctx, await recordSignIn(deps.events, { admin_id: identity.id, address: ctx.ip }, asOwner));
        }
        return { data: { id: identity.id, username: identity.username }, message: 'signed in with a passkey' };
      },
    }),
  ];
}
