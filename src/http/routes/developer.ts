import Router from '@koa/router';
import { z } from 'zod';
import { loginMember } from '../../commands/login-member';
import { PasswordHasher } from '../../commands/passwords';
import { registerMember } from '../../commands/register-member';
import { loginSchema, registrationSchema } from '../../domain/member-fields';
import { ReadModels } from '../../projections/read-models';
import { EventStore } from '../../stores/ports';
import { commandContext } from '../command-context';
import { AppContext, AppState } from '../context';
import { HttpError, respond } from '../envelope';
import {
  csrfToken,
  MemberIdentity,
  memberOf,
  rememberPosition,
  regenerateSession,
  requireCsrf,
  requireMember,
  rotateCsrfToken,
  sessionOf,
} from '../session';
import { parse } from '../validate';

export interface DeveloperDeps {
  events: EventStore;
  hasher: PasswordHasher;
  readModels: ReadModels;
}

const emptyBody = z.strictObject({});

/** Registration and login both end here: a fresh session id, the member in it, a new token. */
async function logIn(ctx: AppContext, member: MemberIdentity): Promise<void> {
  sessionOf(ctx).member = member;
  rotateCsrfToken(ctx);
  await regenerateSession(ctx);
}

/** The member half of the developer center (specification §4.1). */
export function developerRoutes(router: Router<AppState>, deps: DeveloperDeps): void {
  router.get('/developer/session', (ctx) => {
    respond(ctx, { csrf_token: csrfToken(ctx) });
  });

  router.post('/developer/register', requireCsrf, async (ctx) => {
    const registration = parse(registrationSchema, ctx.request.body);
    const registered = await registerMember(deps.events, deps.hasher, registration, commandContext(ctx));
    await logIn(ctx, { id: registered.member_id, username: registered.username });
    rememberPosition(ctx, registered.position);
    respond(ctx, { id: registered.member_id, username: registered.username }, 'registered and logged in');
  });

  router.post('/developer/login', requireCsrf, async (ctx) => {
    const { username, password } = parse(loginSchema, ctx.request.body);
    const member = await loginMember(deps.events, deps.hasher, username, password);
    await logIn(ctx, { id: member.member_id, username: member.username });
    rememberPosition(ctx, member.position);
    respond(ctx, { id: member.member_id, username: member.username, nickname: member.nickname ?? '' }, 'logged in');
  });

  router.post('/developer/logout', requireCsrf, requireMember, (ctx) => {
    parse(emptyBody, ctx.request.body);
    delete sessionOf(ctx).member;
    rotateCsrfToken(ctx);
    respond(ctx, null, 'logged out');
  });

  router.get('/developer/dashboard', requireMember, async (ctx) => {
    const identity = memberOf(ctx);
    const member = await deps.readModels.member(identity.id, sessionOf(ctx).position);
    if (!member) {
      delete sessionOf(ctx).member;
      throw new HttpError(401, 'session_expired', 'this session names a member that does not exist: log in again');
    }
    respond(ctx, {
      member: {
        id: member.id,
        username: member.username,
        nickname: member.nickname,
        email: member.email,
        mobile: member.mobile,
      },
      credential: {
        status: 'none',
        apiid: null,
        applied_at: null,
        reviewed_at: null,
        reject_reason: null,
        claimed_at: null,
      },
      scopes: [],
    });
  });
}
