import { loginAdmin } from '../../commands/admins';
import { PasswordHasher } from '../../commands/passwords';
import { loginSchema } from '../../domain/member-fields';
import { EventStore } from '../../stores/ports';
import { Endpoint } from '../endpoints';
import { respond } from '../envelope';
import { answerCsrfToken, logIntoSession, logOutOfSession } from '../session';
import { emptyBody, parse } from '../validate';

export interface AdminSessionDeps {
  events: EventStore;
  hasher: PasswordHasher;
}

/** The administrator's session (DESIGN §4): the same cookie as a member's, a separate identity in it. */
export function adminSessionEndpoints(deps: AdminSessionDeps): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/admin/session',
      caller: { kind: 'anyone' },
      handler: answerCsrfToken,
    },
    {
      method: 'POST',
      path: '/admin/login',
      caller: { kind: 'anyone' },
      handler: async (ctx) => {
        const { username, password } = parse(loginSchema, ctx.request.body);
        const admin = await loginAdmin(deps.events, deps.hasher, username, password);
        await logIntoSession(ctx, { admin });
        respond(ctx, admin, 'logged in');
      },
    },
    {
      method: 'POST',
      path: '/admin/logout',
      caller: { kind: 'admin' },
      handler: (ctx) => {
        parse(emptyBody, ctx.request.body);
        logOutOfSession(ctx, 'admin');
        respond(ctx, null, 'logged out');
      },
    },
  ];
}
