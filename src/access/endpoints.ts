import { loginAdmin } from './admins';
import { PasswordHasher } from '../member/passwords';
import { loginSchema } from '../member/fields';
import { EventStore } from '../stores/ports';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { csrfTokenEndpoint } from '../shared/http/routes/csrf-token';
import { logoutEndpoint } from '../shared/http/routes/logout';
import { adminIdentitySchema, wrongPassword } from '../shared/http/schemas';
import { passwordWorkBusy } from '../member/password-work';
import { logIntoSession } from '../shared/http/session';

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
    logoutEndpoint('admin'),
  ];
}
