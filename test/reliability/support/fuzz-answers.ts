import { Hostile } from './hostile-request';
import { Reply } from './raw-http';

/** What the fuzz asks of every answer (issue 7, reliability: fuzz), and the refusals that stop a request before its endpoint. */

/** Errors answered before a request reaches its endpoint's validation and handler. */
export const STOPPED_EARLY = new Set([
  'csrf_token_missing',
  'csrf_token_invalid',
  'not_logged_in',
  'admin_not_logged_in',
  'permission_denied',
  'api_credentials_missing',
  'api_credentials_invalid',
  'credential_revoked',
  'credential_expired',
  'scope_not_approved',
  'payload_too_large',
  'unsupported_media_type',
  'malformed_json',
  'forbidden_key',
  'malformed_body',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'too_many_login_failures',
]);

/** What is wrong with this answer, if anything. */
export function problemWith(h: Hostile, reply: Reply, raw: boolean, page: boolean, logGrew: boolean): string | null {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (reply.status >= 400 && logGrew) return `refused with ${reply.status} but the log grew`;
  if (h.method === 'HEAD') return null;
  // The root sends browsers to the web console (src/http/console.ts); it is no API answer.
  if (h.method === 'GET' && (h.target === '/' || h.target.startsWith('/?'))) {
    return reply.status === 302 && reply.headers.location === '/ui/'
      ? null
      : `the root answered ${reply.status}, not a redirect to /ui/`;
  }
  if (raw && reply.status < 300) return null;
  // A browser's route (single sign-on) refuses with a page a person reads; the contract checker judges its type.
  if (page && String(reply.headers['content-type']).startsWith('text/html')) return null;
  if (!String(reply.headers['content-type']).startsWith('application/json'))
    return `answered ${reply.headers['content-type']}, not JSON`;
  let body: { code?: unknown; message?: unknown; data?: unknown };
  try {
    body = JSON.parse(reply.text);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'the body is not an object';
  if (typeof body.message !== 'string' || body.message.length === 0) return 'message is not a non-empty string';
  if (!('data' in body)) return 'no data';
  if (reply.status === 200) return body.code === 0 ? null : `code ${String(body.code)} on a 200`;
  if (reply.status < 400) return `answered ${reply.status}`;
  if (body.code !== reply.status) return `code ${String(body.code)} is not the status`;
  const data = body.data as { error?: unknown } | null;
  if (typeof data !== 'object' || data === null || typeof data.error !== 'string' || !/^[a-z_]+$/.test(data.error))
    return 'data.error is not a stable reason';
  return null;
}
