import { z } from 'zod';
import { DomainError } from '../shared/domain/decider';
import { commandContext } from '../shared/http/command-context';
import { endpoint, Endpoint, Refusal } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { memberParams } from '../shared/http/params';
import { decideThenRead } from '../shared/http/read-your-writes';
import { concurrentChange } from '../shared/http/schemas';
import { emptyBody } from '../shared/http/validate';
import { AccountDeps, resetPasswordByAdministrator } from './account';
import { passwordWorkBusy } from './password-work';
import { memberReads } from './reads';

const noMember: Refusal = {
  status: 404,
  reasons: ['member_not_found'],
  when: 'member_not_found: there is no member with this id',
};

const memberPasswordResetSchema = z
  .object({
    member_id: z.int().min(1),
    username: z.string(),
    password: z.string().meta({ description: 'A one-time password: shown in this answer only, never again' }),
  })
  .meta({ id: 'MemberPasswordReset' });

const notFound = (member_id: number) =>
  new HttpError(
    404,
    'member_not_found',
    `there is no member ${member_id}: the credential queue shows each member's id beside their username (#id), and the audit finds it by username`,
  );

/**
 * Where the service sends no mail, a member who forgot their password asks an administrator holding
 * access.manage, who gives them a one-time password here, as administrators' own are reset. The
 * member is told of it (the event's mail, `password_reset_by` on their account): a reset they did
 * not ask for is a takeover to report.
 */
export function adminResetEndpoints(deps: AccountDeps): Endpoint[] {
  return [
    endpoint({
      method: 'POST',
      path: '/members/:member_id/password-reset',
      caller: { kind: 'admin', permission: 'access.manage' },
      summary:
        'Give a member a one-time password, shown this once: every session of theirs ends, every link mailed to them is spent, and they are told (by mail, and on their account page until they acknowledge it)',
      secretInAnswer: true,
      params: memberParams,
      body: emptyBody,
      response: memberPasswordResetSchema,
      refusals: [noMember, passwordWorkBusy, concurrentChange],
      handler: async (ctx, { params: { member_id } }) => {
        const member = await memberReads(deps.readModels).member(member_id);
        if (!member) throw notFound(member_id);
        const admin_id = adminOf(ctx).id;
        const reset = () =>
          resetPasswordByAdministrator(
            deps,
            member.username,
            admin_id,
            commandContext(ctx, { kind: 'admin', id: admin_id }),
          ).catch((err: unknown) => {
            throw err instanceof DomainError && err.error === 'member_not_found' ? notFound(member_id) : err;
          });
        return decideThenRead(ctx, reset, async ({ password }) => ({
          data: { member_id, username: member.username, password },
          message: `password of ${member.username} reset: hand over the one-time password now, it is not shown again; every session of theirs ended`,
        }));
      },
    }),
  ];
}
