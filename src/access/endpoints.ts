import { z } from 'zod';
import { loginAdmin } from './admins';
import { PasswordHasher } from '../member/passwords';
import { loginSchema } from '../member/fields';
import { EventStore } from '../stores/ports';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { csrfTokenEndpoint } from '../shared/http/routes/csrf-token';
import { adminIdentitySchema, wrongPassword } from '../shared/http/schemas';
import { passwordWorkBusy } from '../member/password-work';
import { logIntoSession, logOutOfSession } from '../shared/http/session';
import { emptyBody } from '../shared/http/validate';

export interface AdminSessionDeps {
  events: EventStore;
  hasher: PasswordHasher;
}

/** The administrator's session (DESIGN §4): the same cookie as a member's, a separate identity in it. */
export function adminSessionEndpoints(deps: AdminSessionDeps): Endpoint[] {
  return [
    csrfTokenEndpoint('/admin/session'),
    endpoint({
      method: 'POST',
      path: '/admin/login',
      caller: { kind: 'anyone' },
      summary: 'Log in as an administrator: a new session id and a new CSRF token',
      body: loginSchema,
      response: adminIdentitySchema,
      refusals: [wrongPassword, passwordWorkBusy],
      login: 'admin',
      handler: async (ctx, { body: { username, password } }) => {
        const admin = await loginAdmin(deps.events, deps.hasher, username, password);
        await logIntoSession(ctx, { admin });
        return { data: admin, message: 'logged in' };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/admin/logout',
      caller: { kind: 'admin' },
      summary: 'Log the administrator out of this session (a new session id and a new CSRF token); a member logged into it stays',
      body: emptyBody,
      response: z.null(),
      callerBeforeCsrf: true,
      handler: async (ctx) => {
        await logOutOfSession(ctx, 'admin');
        return { data: null, message: 'logged out' };
      },
    }),
  ];
}
