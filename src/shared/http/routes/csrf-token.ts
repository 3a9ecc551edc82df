import { endpoint, Endpoint } from '../endpoints';
import { csrfTokenSchema } from '../schemas';
import { csrfToken } from '../session';

/** GET /developer/session and GET /admin/session: one cookie session, one token, for both sides. */
export function csrfTokenEndpoint(path: '/developer/session' | '/admin/session'): Endpoint {
  return endpoint({
    method: 'GET',
    path,
    caller: { kind: 'anyone' },
    summary: "The session's CSRF token; starts a session (PHPSESSID) when there is none",
    response: csrfTokenSchema,
    handler: (ctx) => ({ data: { csrf_token: csrfToken(ctx) } }),
  });
}
