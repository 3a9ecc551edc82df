import { z } from 'zod';
import { acceptInvitation, InvitationDeps } from './invitation';
import { refusedAs } from './role-group-endpoints';
import { passwordSchema, passwordWorkBusy } from '../member';
import { tokenSchema } from '../shared/mailed-links';
import { commandContext } from '../shared/http/command-context';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { decideThenRead } from '../shared/http/read-your-writes';
import { concurrentChange } from '../shared/http/schemas';

/** The mailed invitation's landing (docs/administrators.md): no session, the link's token is the proof. */
export function invitationEndpoints(deps: InvitationDeps): Endpoint[] {
  return [
    endpoint({
      method: 'POST',
      path: '/admin/invitation/accept',
      caller: { kind: 'anyone' },
      summary: "Choose an invited administrator's password with the mailed link's token: it works once",
      body: z.strictObject({ token: tokenSchema, password: passwordSchema }),
      response: z.object({ username: z.string() }),
      refusals: [
        {
          status: 422,
          reasons: ['invitation_token_unknown', 'invitation_token_spent', 'invitation_token_expired'],
          when: 'the link is unknown, already used (or a password was set since) or expired (data.error: invitation_token_unknown, invitation_token_spent, invitation_token_expired)',
        },
        {
          status: 403,
          reasons: ['admin_disabled'],
          when: 'admin_disabled: the administrator the link is for is disabled',
        },
        passwordWorkBusy,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const accept = () =>
          refusedAs({ admin_disabled: 403 }, () =>
            acceptInvitation(deps, body.token, body.password, commandContext(ctx, { kind: 'system', id: null })),
          );
        const { username } = await decideThenRead(ctx, accept, async (written) => written);
        return { data: { username }, message: `password set: sign in to the administrator console as ${username}` };
      },
    }),
  ];
}
