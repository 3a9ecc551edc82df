import { z } from 'zod';
import { endpoint, Endpoint } from '../endpoints';
import { logOutOfSession, sessionOf } from '../session';
import { AppContext } from '../context';
import { emptyBody } from '../validate';

const OTHER_SIDE = { member: 'an administrator', admin: 'a member' } as const;
const WHO = { member: 'the member', admin: 'the administrator' } as const;

/**
 * The logout of one side of the shared session, or of its sign-in awaiting a second factor; the
 * other side's identity stays. `loggedOut` is
 * told whose identity left, once it has (the access slice records it).
 */
export function logoutEndpoint(
  side: 'member' | 'admin',
  loggedOut?: (ctx: AppContext, id: number) => Promise<void>,
): Endpoint {
  return endpoint({
    method: 'POST',
    path: side === 'member' ? '/developer/logout' : '/admin/logout',
    caller: { kind: side },
    summary: `Log ${WHO[side]} out of this session (a new session id and a new CSRF token); ${OTHER_SIDE[side]} logged into it stays`,
    body: emptyBody,
    response: z.null(),
    callerBeforeCsrf: true,
    beforePasswordChange: true,
    endsPendingSignIn: true,
    movesSession: true,
    handler: async (ctx) => {
      const id = sessionOf(ctx)[side]?.id;
      await logOutOfSession(ctx, side);
      if (loggedOut && id !== undefined) await loggedOut(ctx, id);
      return { data: null, message: 'logged out' };
    },
  });
}
