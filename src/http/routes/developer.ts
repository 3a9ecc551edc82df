import { loginMember } from '../../commands/login-member';
import { PasswordHasher } from '../../commands/passwords';
import { registerMember } from '../../commands/register-member';
import { loginSchema, registrationSchema } from '../../domain/member-fields';
import { ReadModels } from '../../projections/read-models';
import { EventStore } from '../../stores/ports';
import { commandContext } from '../command-context';
import { Endpoint } from '../endpoints';
import { HttpError, respond } from '../envelope';
import { memberOf } from '../guards';
import { answerCsrfToken, logIntoSession, logOutOfSession, rememberPosition, sessionOf } from '../session';
import { emptyBody, parse } from '../validate';
import { credentialView } from '../views';

export interface DeveloperDeps {
  events: EventStore;
  hasher: PasswordHasher;
  readModels: ReadModels;
}

/** The member half of the developer center (specification §4.1): session, account, dashboard. */
export function developerEndpoints(deps: DeveloperDeps): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/developer/session',
      caller: { kind: 'anyone' },
      handler: answerCsrfToken,
    },
    {
      method: 'POST',
      path: '/developer/register',
      caller: { kind: 'anyone' },
      handler: async (ctx) => {
        const registration = parse(registrationSchema, ctx.request.body);
        const registered = await registerMember(deps.events, deps.hasher, registration, commandContext(ctx, { kind: 'system', id: null }));
        await logIntoSession(ctx, { member: { id: registered.member_id, username: registered.username } });
        rememberPosition(ctx, registered.position);
        respond(ctx, { id: registered.member_id, username: registered.username }, 'registered and logged in');
      },
    },
    {
      method: 'POST',
      path: '/developer/login',
      caller: { kind: 'anyone' },
      handler: async (ctx) => {
        const { username, password } = parse(loginSchema, ctx.request.body);
        const member = await loginMember(deps.events, deps.hasher, username, password);
        await logIntoSession(ctx, { member: { id: member.member_id, username: member.username } });
        rememberPosition(ctx, member.position);
        respond(ctx, { id: member.member_id, username: member.username, nickname: member.nickname ?? '' }, 'logged in');
      },
    },
    {
      method: 'POST',
      path: '/developer/logout',
      caller: { kind: 'member' },
      handler: (ctx) => {
        parse(emptyBody, ctx.request.body);
        logOutOfSession(ctx, 'member');
        respond(ctx, null, 'logged out');
      },
    },
    {
      method: 'GET',
      path: '/developer/dashboard',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        const identity = memberOf(ctx);
        const after = sessionOf(ctx).position;
        const member = await deps.readModels.member(identity.id, after);
        if (!member) {
          delete sessionOf(ctx).member;
          throw new HttpError(401, 'session_expired', 'this session names a member that does not exist: log in again');
        }
        const credential = await deps.readModels.credential(identity.id, after);
        respond(ctx, {
          member: { id: member.id, username: member.username, nickname: member.nickname, email: member.email, mobile: member.mobile },
          credential: credentialView(credential),
          scopes: credential?.scopes ?? [],
        });
      },
    },
  ];
}
