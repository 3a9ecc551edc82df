import { z } from 'zod';
import { accountEndpoints, AccountEndpointDeps } from './account-endpoints';
import { adminResetEndpoints } from './admin-reset-endpoints';
import { resetEndpoints, ResetEndpointDeps } from './reset-endpoints';
import { credentialReads, credentialSchema, credentialView, scopeSchema } from '../credential';
import { isRegistered, loginMember } from './login';
import { loginEndpoint } from './login-endpoint';
import { memberReads } from './reads';
import { PasswordHasher } from './passwords';
import { registerMember } from './register';
import { registrationSchema } from './fields';
import { ReadModels } from '../shared/projections/read-models';
import { EventStore } from '../stores/ports';
import { tooManyRegistrations } from '../shared/http/address-limits';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { passwordWorkBusy } from './password-work';
import { decideThenRead } from '../shared/http/read-your-writes';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { csrfTokenEndpoint } from '../shared/http/routes/csrf-token';
import { logoutEndpoint } from '../shared/http/routes/logout';
import { HttpError } from '../shared/http/envelope';
import { memberOf } from '../shared/http/guards';
import { logIntoSession, sessionOf } from '../shared/http/session';
import { concurrentChange } from '../shared/http/schemas';
import type { SecondFactorPolicy } from '../config-second-factor';
import { checkMemberPassword } from './password-check';
import { secondFactorEndpoints } from './second-factor/endpoints';
import { SeedSealer } from './second-factor/sealer';
import { PasskeyCheck, secondFactorStepSchema, signInAfterPassword } from './second-factor/sign-in';

export interface DeveloperDeps extends AccountEndpointDeps, ResetEndpointDeps {
  events: EventStore;
  /** Seals TOTP seeds; names the service in the app; REQUIRE_SECOND_FACTOR covers members when `everyone`. */
  secondFactor: { sealer: SeedSealer; issuer: string; policy: SecondFactorPolicy; passkey: PasskeyCheck };
  hasher: PasswordHasher;
  /** Refuses (429) a client address that registered too many members lately. */
  admitRegistration(ctx: AppContext): Promise<void>;
  readModels: ReadModels;
}

// The login's nickname is typed a string, though registration may leave it out (docs/rules.md, "Members"):
// a member without one is answered an empty string (which registration also takes for none), here
// and on the dashboard alike.
const nicknameSchema = z.string().meta({ description: 'empty when the member gave none' });
const shownNickname = (nickname: string | null): string => nickname ?? '';

const passwordChangeRequired = z.boolean().meta({
  description:
    'signed in with a one-time password: every other call is refused (403 password_change_required) until POST /developer/password',
});

const memberSchema = z
  .object({
    id: z.int().min(1),
    username: z.string(),
    nickname: nicknameSchema,
    email: z.string().nullable(),
    mobile: z.string().nullable(),
  })
  .meta({ id: 'Member' });

const dashboardSchema = z
  .object({ member: memberSchema, credential: credentialSchema, scopes: z.array(scopeSchema) })
  .meta({ id: 'Dashboard' });

/** The member half of the developer center: session, account, dashboard. */
export function developerEndpoints(deps: DeveloperDeps): Endpoint[] {
  return [
    csrfTokenEndpoint('/developer/session'),
    endpoint({
      method: 'POST',
      path: '/developer/register',
      caller: { kind: 'anyone' },
      summary: 'Register a developer member and log it in: a new session id and a new CSRF token',
      body: registrationSchema,
      response: z.object({ id: z.int().min(1), username: z.string() }),
      movesSession: true,
      refusals: [
        {
          status: 422,
          reasons: ['username_taken'],
          when: 'username_taken: the username is taken (case-insensitively), or reads like a registered one (UTS #39 confusables); the other is not named',
        },
        concurrentChange,
        tooManyRegistrations,
        passwordWorkBusy,
      ],
      handler: async (ctx, { body }) => {
        await deps.admitRegistration(ctx);
        // The session is renewed first, so the position goes into the new one; the answer is the
        // decision's own data, with no read model to wait for.
        const register = async () => {
          const registered = await registerMember(
            deps.events,
            deps.hasher,
            body,
            commandContext(ctx, { kind: 'system', id: null }),
          );
          await logIntoSession(ctx, { member: { id: registered.member_id, username: registered.username } });
          return registered;
        };
        const registered = await decideThenRead(ctx, register, async (member) => member);
        return {
          data: { id: registered.member_id, username: registered.username },
          message: 'registered and logged in',
        };
      },
    }),
    loginEndpoint('member', {
      summary: 'Log in as a developer member (never an administrator): a new session id and a new CSRF token',
      response: z.object({
        id: z.int().min(1),
        username: z.string(),
        nickname: nicknameSchema,
        password_change_required: passwordChangeRequired,
        ...secondFactorStepSchema,
      }),
      logIn: async (ctx, username, password) => {
        const member = await loginMember(deps.events, deps.hasher, username, password);
        const oneTime = member.one_time_password ? { password_change_required: true as const } : {};
        const identity = { id: member.member_id, username: member.username, ...oneTime };
        const covered = deps.secondFactor.policy === 'everyone';
        const step = await signInAfterPassword(ctx, deps.events, 'member', identity, {
          position: member.position,
          covered,
          passkey: deps.secondFactor.passkey,
        });
        return {
          id: member.member_id,
          username: member.username,
          nickname: shownNickname(member.nickname),
          password_change_required: member.one_time_password,
          ...step,
        };
      },
    }),
    logoutEndpoint('member'),
    ...secondFactorEndpoints('member', {
      events: deps.events,
      sealer: deps.secondFactor.sealer,
      issuer: deps.secondFactor.issuer,
      covered: async () => deps.secondFactor.policy === 'everyone',
      checkPassword: (ctx, member, password) => checkMemberPassword(ctx, deps, member, password),
    }),
    ...resetEndpoints(deps),
    ...accountEndpoints(deps),
    ...adminResetEndpoints(deps),
    endpoint({
      method: 'GET',
      path: '/developer/dashboard',
      caller: { kind: 'member' },
      summary: "The member's account, credential and scopes",
      response: dashboardSchema,
      handler: async (ctx) => {
        const identity = memberOf(ctx);
        const after = sessionOf(ctx).position;
        const member = await memberReads(deps.readModels).member(identity.id, after);
        if (!member) {
          // A member missing from a read model being rebuilt or repaired is not logged out for it.
          if (await isRegistered(deps.events, identity.username)) {
            throw new HttpError(
              503,
              'read_model_unavailable',
              'the members read model cannot show this member right now: retry in a moment',
              undefined,
              { 'Retry-After': '1' },
            );
          }
          delete sessionOf(ctx).member;
          throw new HttpError(401, 'session_expired', 'this session names a member that does not exist: log in again');
        }
        const credential = await credentialReads(deps.readModels).credential(identity.id, after);
        return {
          data: {
            member: {
              id: member.id,
              username: member.username,
              nickname: shownNickname(member.nickname),
              email: member.email,
              mobile: member.mobile,
            },
            credential: credentialView(credential),
            scopes: credential?.scopes ?? [],
          },
        };
      },
    }),
  ];
}
