import { z } from 'zod';
import { loginAdmin } from './admins';
import { adminPasswordMatches, changeAdminPassword } from './admin-accounts';
import { administratorEndpoints, AdministratorDeps } from './administrator-endpoints';
import { invitationEndpoints } from './invitation-endpoints';
import { asAdmin, refusedAs, roleGroupEndpoints } from './role-group-endpoints';
import {
  loginEndpoint,
  passwordSchema,
  secondFactorEndpoints,
  secondFactorStepSchema,
  SeedSealer,
  signInAfterPassword,
  type PasskeyCheck,
} from '../member';
import type { SecondFactorPolicy } from '../config-second-factor';
import { adminCoveredBy } from './second-factor-policy';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { adminOf } from '../shared/http/guards';
import { csrfTokenEndpoint } from '../shared/http/routes/csrf-token';
import { logoutEndpoint } from '../shared/http/routes/logout';
import { decideThenRead } from '../shared/http/read-your-writes';
import { adminIdentitySchema } from './schemas';
import { AdminIdentity, passwordChanged, rememberPosition, thisSessionRecord } from '../shared/http/session';
import { commandContext } from '../shared/http/command-context';
import { AuthenticationFailed } from '../shared/commands/errors';
import { recordSignIn, recordSignOut } from './access-log';
import type { SignInFailures } from './sign-in-failures';
import { checkCurrentPassword, CountedLimit, tooManyPasswordFailures } from '../shared/http/password-failures';
import { concurrentChange } from '../shared/http/schemas';
import { EventStore } from '../stores/ports';
import { AppContext } from '../shared/http/context';
import type { SsoSettings } from './sso/settings';
import { assertPasswordSignInAllowed, passwordSignInOff } from './sso/password-sign-in';

export interface AdminSessionDeps extends AdministratorDeps {
  /** Wrong current passwords, per administrator under `admin-<id>` (members' keys are bare ids). */
  passwordChecks: CountedLimit;
  /** Where a failed administrator sign-in is counted, to be recorded folded by the minute. */
  signInFailures: Pick<SignInFailures, 'count'>;
  /** OIDC_ONLY turns password sign-in off but for super administrators (./sso). */
  sso: Pick<SsoSettings, 'only' | 'displayName'> | null;
  /** Seals TOTP seeds; names the service in the app; who REQUIRE_SECOND_FACTOR covers. */
  secondFactor: { sealer: SeedSealer; issuer: string; policy: SecondFactorPolicy; passkey: PasskeyCheck };
}

const disabledAtLogin = {
  status: 403,
  reasons: ['admin_disabled'],
  when: 'admin_disabled: the password is right, but this administrator is disabled',
} as const;

const passwordBody = z.strictObject({
  current_password: z.string().max(1024),
  new_password: passwordSchema,
});

/** Records an administrator's completed sign-in (the access log); answers its position. */
const recordAdminSignIn = (events: EventStore, ctx: AppContext, admin_id: number) =>
  recordSignIn(events, { admin_id, address: ctx.ip }, commandContext(ctx, { kind: 'admin', id: admin_id }));

/** The administrator's session (docs/administrators.md): the same cookie as a member's, a separate identity in it. */
function adminSessionEndpoints(deps: AdminSessionDeps): Endpoint[] {
  return [
    csrfTokenEndpoint('/admin/session'),
    loginEndpoint('admin', {
      summary: 'Log in as an administrator: a new session id and a new CSRF token',
      response: adminIdentitySchema.extend({
        password_change_required: z.boolean().meta({
          description:
            'signed in with a one-time password: every other call is refused (403 password_change_required) until POST /admin/password',
        }),
        ...secondFactorStepSchema,
      }),
      refusals: [disabledAtLogin, passwordSignInOff],
      logIn: async (ctx, username, password) => {
        const admin = await refusedAs({ admin_disabled: 403 }, () =>
          loginAdmin(deps.events, deps.hasher, username, password),
        ).catch(async (err: unknown) => {
          if (err instanceof AuthenticationFailed) await deps.signInFailures.count(username, ctx.ip, new Date());
          throw err;
        });
        assertPasswordSignInAllowed(deps.sso, admin);
        const covered = await adminCoveredBy(deps.secondFactor.policy, deps.events, admin);
        const step = await signInAfterPassword(ctx, deps.events, 'admin', admin, {
          covered,
          passkey: deps.secondFactor.passkey,
        });
        if (!step.second_factor_required) rememberPosition(ctx, await recordAdminSignIn(deps.events, ctx, admin.id));
        const { password_change_required, ...identity } = admin;
        return { ...identity, password_change_required: password_change_required === true, ...step };
      },
    }),
    ...secondFactorEndpoints('admin', {
      events: deps.events,
      sealer: deps.secondFactor.sealer,
      issuer: deps.secondFactor.issuer,
      covered: (_ctx, admin) => adminCoveredBy(deps.secondFactor.policy, deps.events, admin as AdminIdentity),
      checkPassword: (ctx, admin, password) =>
        checkCurrentPassword(ctx, deps.passwordChecks, `admin-${admin.id}`, () =>
          adminPasswordMatches(deps.events, deps.hasher, admin.username, password),
        ),
      signedIn: (ctx, admin) => recordAdminSignIn(deps.events, ctx, admin.id),
    }),
    logoutEndpoint('admin', async (ctx, admin_id) => {
      await recordSignOut(
        deps.events,
        { admin_id, reason: 'sign_out', sessions: 1 },
        commandContext(ctx, { kind: 'admin', id: admin_id }),
      );
    }),
    endpoint({
      method: 'POST',
      path: '/admin/password',
      caller: { kind: 'admin' },
      beforePasswordChange: true,
      summary: "Change this administrator's own password; every other session of theirs ends",
      body: passwordBody,
      response: z.null(),
      refusals: [
        {
          status: 422,
          reasons: ['wrong_current_password', 'invalid_password'],
          when: 'the current password is wrong (wrong_current_password), or the new one breaks its rule (invalid_password); nothing changes',
        },
        tooManyPasswordFailures,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const admin = adminOf(ctx);
        await checkCurrentPassword(ctx, deps.passwordChecks, `admin-${admin.id}`, () =>
          adminPasswordMatches(deps.events, deps.hasher, admin.username, body.current_password),
        );
        return decideThenRead(
          ctx,
          async () => {
            const decision = await changeAdminPassword(
              deps.events,
              deps.hasher,
              admin.username,
              body.new_password,
              asAdmin(ctx),
            );
            return {
              ...decision,
              ended: await deps.sessions.endAllOf({ side: 'admin', id: admin.id }, thisSessionRecord(ctx)),
            };
          },
          async ({ ended }) => {
            passwordChanged(ctx, 'admin');
            return {
              data: null,
              message: `password changed; ${ended} other session${ended === 1 ? '' : 's'} ended`,
            };
          },
        );
      },
    }),
  ];
}

/** Every endpoint of the access slice. */
export const accessEndpoints = (deps: AdminSessionDeps): Endpoint[] => [
  ...adminSessionEndpoints(deps),
  ...roleGroupEndpoints(deps),
  ...administratorEndpoints(deps),
  ...invitationEndpoints(deps),
];
