import { z } from 'zod';
import { endpoint, Endpoint } from '../endpoints';
import { logOutOfSession } from '../session';
import { emptyBody } from '../validate';

const OTHER_SIDE = { member: 'an administrator', admin: 'a member' } as const;
const WHO = { member: 'the member', admin: 'the administrator' } as const;

/** The logout of one side of the shared session; the other side's identity stays. */
export function logoutEndpoint(side: 'member' | 'admin'): Endpoint {
  return endpoint({
    method: 'POST',
    path: side === 'member' ? '/developer/logout' : '/admin/logout',
    caller: { kind: side },
    summary: `Log ${WHO[side]} out of this session (a new session id and a new CSRF token); ${OTHER_SIDE[side]} logged into it stays`,
    body: emptyBody,
    response: z.null(),
    callerBeforeCsrf: true,
    movesSession: true,
    handler: async (ctx) => {
      await logOutOfSession(ctx, side);
      return { data: null, message: 'logged out' };
    },
  });
}
