import { z } from 'zod';
import { assertionRefusals } from './assertion-refusals';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { commandContext } from '../../shared/http/command-context';
import { logIntoSession, rememberPosition } from '../../shared/http/session';
import type { ReadModels } from '../../shared/projections/read-models';
import { AuthenticationFailed } from '../../shared/commands/errors';
import { refusedAs } from '../role-group-endpoints';
import { recordSignIn } from '../access-log';
import type { SignInFailures } from '../sign-in-failures';
import { adminIdentitySchema } from '../schemas';
import type { SsoSettings } from '../sso/settings';
import { assertPasswordSignInAllowed, passwordSignInOff } from '../sso/password-sign-in';
import { authenticationOptions, authenticationResponseSchema, ceremonyOptionsSchema, takeChallenge } from './ceremony';
import type { PasskeyDeps } from './enrolment-endpoints';
import { adminOfAnswer, adminSigningIn, checkAssertion } from './sign-in';
import { recordPasskeyUse } from './passkeys';

export interface PasskeySignInDeps extends PasskeyDeps {
  readModels: ReadModels;
  signInFailures: Pick<SignInFailures, 'count'>;
  sso: Pick<SsoSettings, 'only' | 'displayName'> | null;
}

const PURPOSE = 'admin-sign-in';

/** The administrator whose passkey signed this session's challenge, and what the signature tells. */
async function signedBy(deps: PasskeyDeps, challenge: string, response: z.output<typeof authenticationResponseSchema>) {
  const account = adminOfAnswer(response);
  return { account, checked: await checkAssertion(deps.events, deps.relyingParty, challenge, response, account) };
}
const OPTIONS_PATH = '/admin/login/passkey/options';

/**
 * An administrator's passwordless sign-in (docs/accounts.md): the browser offers whichever of this
 * site's passkeys its user picks, whose user handle names the administrator. As the password
 * sign-in does: a new session id and CSRF token, the sign-in recorded, a failure counted in the
 * login limits and the folded log of failed sign-ins; under OIDC_ONLY only a super administrator.
 */
export function passkeySignInEndpoints(deps: PasskeySignInDeps): Endpoint[] {
  return [
    endpoint({
      method: 'POST',
      path: OPTIONS_PATH,
      caller: { kind: 'anyone' },
      summary: "Begin an administrator's sign-in with a passkey: the options for the browser's startAuthentication",
      response: ceremonyOptionsSchema,
      handler: async (ctx) => ({
        data: await authenticationOptions(ctx, deps.relyingParty, PURPOSE),
        message: 'sign these options with a passkey, then POST the answer to /admin/login/passkey',
      }),
    }),
    endpoint({
      method: 'POST',
      path: '/admin/login/passkey',
      caller: { kind: 'anyone' },
      summary: 'Sign in as an administrator with a passkey: a new session id and a new CSRF token',
      body: z.strictObject({ response: authenticationResponseSchema }),
      response: adminIdentitySchema,
      login: 'admin',
      movesSession: true,
      refusals: [
        {
          status: 401,
          reasons: ['passkey_not_accepted'],
          when: 'passkey_not_accepted: no administrator has this passkey, or its signature is wrong',
        },
        ...assertionRefusals,
        {
          status: 403,
          reasons: ['admin_disabled'],
          when: 'admin_disabled: the passkey is right, but this administrator is disabled',
        },
        passwordSignInOff,
      ],
      handler: async (ctx, { body: { response } }) => {
        const challenge = takeChallenge(ctx, PURPOSE, OPTIONS_PATH);
        const { account, checked } = await signedBy(deps, challenge, response).catch(async (err: unknown) => {
          // Counted as a wrong password is, under whom the passkey named: no username was typed.
          if (err instanceof AuthenticationFailed) await deps.signInFailures.count('(passkey)', ctx.ip, new Date());
          throw err;
        });
        const admin = await refusedAs({ admin_disabled: 403 }, () =>
          adminSigningIn(deps.events, deps.readModels, account.id),
        );
        assertPasswordSignInAllowed(deps.sso, admin);
        const asAdmin = commandContext(ctx, { kind: 'admin', id: admin.id });
        await refusedAs({ passkey_challenge_used: 409, passkey_not_found: 409 }, () =>
          recordPasskeyUse(deps.events, account, { ...checked, purpose: 'sign_in' }, asAdmin),
        );
        await logIntoSession(ctx, { admin });
        rememberPosition(ctx, await recordSignIn(deps.events, { admin_id: admin.id, address: ctx.ip }, asAdmin));
        return { data: admin, message: 'logged in with a passkey' };
      },
    }),
  ];
}
