import type { Schemas } from '../src/api/client';

/** The service's answer as the console's fetch receives it: an envelope ({ code, message, data }) sent as JSON with this status. */
export const envelope = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Stands in for the service behind the console's fetch: records every request, hands out a CSRF
 * token, and leaves every other answer to `answer`. Answers the requests made, in order.
 */
export function serviceStandIn(
  answer: (url: URL, request: Request) => Response | Promise<Response>,
  answersPasskeys = false,
  answersSecondFactor = false,
): Request[] {
  const calls: Request[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    calls.push(request);
    const url = new URL(request.url);
    if (url.pathname.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    // The account screens list the passkeys beside what a test is about: none, unless it answers them itself.
    if (url.pathname.endsWith('/passkeys') && request.method === 'GET' && !answersPasskeys)
      return envelope(200, { code: 0, message: 'ok', data: [] });
    // Nor an authenticator app, unless the test is about it.
    if (url.pathname.endsWith('/2fa') && request.method === 'GET' && !answersSecondFactor)
      return envelope(200, { code: 0, message: 'ok', data: { totp: false, recovery_codes_remaining: 0 } });
    return answer(url, request);
  }) as typeof fetch;
  return calls;
}

type Permission = Schemas['AdminContext']['account']['permissions'][number];

/** GET /admin/context's answer for carol, an administrator (not super) holding these permissions. */
export const adminContext = (permissions: Permission[]): Response =>
  envelope(200, {
    code: 0,
    message: 'ok',
    data: { account: { id: 2, username: 'carol', is_super: false, role_id: 2, permissions }, role_groups: [] },
  });
