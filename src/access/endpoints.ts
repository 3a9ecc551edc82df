import { loginAdmin } from './admins';
import { PasswordHasher, loginEndpoint } from '../member';
import { EventStore } from '../stores/ports';
import { Endpoint } from '../shared/http/endpoints';
import { csrfTokenEndpoint } from '../shared/http/routes/csrf-token';
import { logoutEndpoint } from '../shared/http/routes/logout';
import { adminIdentitySchema } from './schemas';
import { logIntoSession } from '../shared/http/session';

export interface AdminSessionDeps {
  events: EventStore;
  hasher: PasswordHasher;
}

/** The administrator's session (docs/application-center.md): the same cookie as a member's, a separate identity in it. */
export function adminSessionEndpoints(deps: AdminSessionDeps): Endpoint[] {
  return [
    csrfTokenEndpoint('/admin/session'),
    loginEndpoint('admin', {
      summary: 'Log in as an administrator: a new session id and a new CSRF token',
      response: adminIdentitySchema,
      logIn: async (ctx, username, password) => {
        const admin = await loginAdmin(deps.events, deps.hasher, username, password);
        await logIntoSession(ctx, { admin });
        return admin;
      },
    }),
    logoutEndpoint('admin'),
  ];
}
