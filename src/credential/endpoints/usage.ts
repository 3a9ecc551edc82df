import { credentialReads } from '../reads';
import { usageSchema } from '../usage/view';
import { UsageLedger } from '../usage/ledger';
import { ReadModels } from '../../shared/projections/read-models';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { HttpError } from '../../shared/http/envelope';
import { memberOf } from '../../shared/http/guards';
import { memberParams } from '../../shared/http/params';
import { listOf } from '../../shared/http/schemas';
import { RECENT_CALLS, recentCallSchema } from '../usage/recent-calls';

export interface UsageDeps {
  readModels: ReadModels;
  usage: Pick<UsageLedger, 'usage' | 'recentCalls'>;
}

/** Each credential's open-API calls over the last 30 days: for its member, and for the reviewers. */
export function usageEndpoints(deps: UsageDeps): Endpoint[] {
  const reads = credentialReads(deps.readModels);
  return [
    endpoint({
      method: 'GET',
      path: '/developer/usage',
      caller: { kind: 'member' },
      summary:
        "The member's own credential's open-API calls per day over the last 30 days, and when it was last used, with each key's share",
      response: usageSchema,
      handler: async (ctx) => {
        const { id } = memberOf(ctx);
        return { data: await deps.usage.usage(id, await reads.keyRing(id)) };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/developer/calls',
      caller: { kind: 'member' },
      summary: `The member's own credential's last ${RECENT_CALLS} open-API calls, newest first, refused ones and those with a key that did not match included`,
      description:
        "The member's own credential's last open-API calls, newest first. Kept in memory by the process that served them (docs/credentials.md): a restart forgets them, and with several processes each answers the calls it served",
      response: listOf(recentCallSchema),
      handler: (ctx) => ({ data: { list: deps.usage.recentCalls(memberOf(ctx).id) } }),
    }),
    endpoint({
      method: 'GET',
      path: '/credentials/:member_id/usage',
      caller: { kind: 'admin', permission: 'credential.review' },
      summary:
        "A member's credential's open-API calls per day over the last 30 days, and when it was last used, with each key's share",
      params: memberParams,
      response: usageSchema,
      refusals: [
        {
          status: 404,
          reasons: ['credential_not_found'],
          when: 'the member never applied for a credential, or does not exist (credential_not_found)',
        },
      ],
      handler: async (_ctx, { params: { member_id } }) => {
        if (!(await reads.credential(member_id))) {
          throw new HttpError(
            404,
            'credential_not_found',
            `member ${member_id} never applied for a credential (or does not exist)`,
          );
        }
        return { data: await deps.usage.usage(member_id, await reads.keyRing(member_id)) };
      },
    }),
  ];
}
