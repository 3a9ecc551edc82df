import { z } from 'zod';
import { decideCredential } from '../../commands/credentials';
import { CredentialCommand } from '../../domain/credential';
import { reasonSchema } from '../../domain/reason';
import { ReadModels } from '../../projections/read-models';
import { EventStore, Scalar } from '../../stores/ports';
import { commandContext } from '../command-context';
import { AppContext } from '../context';
import { Endpoint } from '../endpoints';
import { respond } from '../envelope';
import { adminOf } from '../guards';
import { memberIdParam, scopeParam } from '../params';
import { rememberPosition } from '../session';
import { emptyBody, parse } from '../validate';
import { applicationView } from '../views';

export interface ReviewDeps {
  events: EventStore;
  readModels: ReadModels;
}

const reasonBody = z.strictObject({ reason: reasonSchema });

const statusQuery = (statuses: [string, ...string[]]) =>
  z.object({ status: z.enum(statuses, { error: `status must be one of ${statuses.join(', ')}` }).optional() });

const credentialStatusQuery = statusQuery(['pending', 'approved', 'rejected', 'active', 'revoked']);
const scopeStatusQuery = statusQuery(['pending', 'approved', 'rejected', 'revoked']);

const filter = (status: string | undefined): Record<string, Scalar> => (status ? { status } : {});

/** An administrator's decision: the command, with the administrator as actor and the reason in the metadata. */
async function decide(deps: ReviewDeps, ctx: AppContext, command: CredentialCommand, reason?: string): Promise<string | null> {
  const admin = adminOf(ctx);
  const { position } = await decideCredential(deps.events, command, commandContext(ctx, { kind: 'admin', id: admin.id }, reason));
  rememberPosition(ctx, position);
  return position;
}

const review = { kind: 'admin', permission: 'credential.review' } as const;

/** The administrators' review of credential applications and scope requests (DESIGN §4). */
export function credentialReviewEndpoints(deps: ReviewDeps): Endpoint[] {
  const application = async (ctx: AppContext, member_id: number, position: string | null, message: string) => {
    const doc = await deps.readModels.credential(member_id, position);
    respond(ctx, doc && applicationView(doc), message);
  };
  const scopeRequest = async (ctx: AppContext, member_id: number, scope: string, position: string | null, message: string) => {
    respond(ctx, await deps.readModels.scopeRequest(member_id, scope, position), message);
  };

  return [
    {
      method: 'GET',
      path: '/credentials',
      caller: review,
      handler: async (ctx) => {
        const { status } = parse(credentialStatusQuery, ctx.query);
        respond(ctx, { list: (await deps.readModels.credentials(filter(status))).map(applicationView) });
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/approve',
      caller: review,
      handler: async (ctx) => {
        const member_id = memberIdParam(ctx);
        parse(emptyBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'ApproveCredential', data: { member_id } });
        await application(ctx, member_id, position, 'approved: the member can claim the credential');
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/reject',
      caller: review,
      handler: async (ctx) => {
        const member_id = memberIdParam(ctx);
        const { reason } = parse(reasonBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'RejectCredential', data: { member_id, reason } }, reason);
        await application(ctx, member_id, position, 'rejected');
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/revoke',
      caller: review,
      handler: async (ctx) => {
        const member_id = memberIdParam(ctx);
        const { reason } = parse(reasonBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'RevokeCredential', data: { member_id, reason } }, reason);
        await application(ctx, member_id, position, 'revoked: the credential is refused from now on');
      },
    },
    {
      method: 'GET',
      path: '/scope-requests',
      caller: review,
      handler: async (ctx) => {
        const { status } = parse(scopeStatusQuery, ctx.query);
        respond(ctx, { list: await deps.readModels.scopeRequests(filter(status)) });
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/scopes/:scope/approve',
      caller: review,
      handler: async (ctx) => {
        const [member_id, scope] = [memberIdParam(ctx), scopeParam(ctx)];
        parse(emptyBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'ApproveScope', data: { member_id, scope } });
        await scopeRequest(ctx, member_id, scope, position, 'scope approved');
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/scopes/:scope/reject',
      caller: review,
      handler: async (ctx) => {
        const [member_id, scope] = [memberIdParam(ctx), scopeParam(ctx)];
        const { reason } = parse(reasonBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'RejectScope', data: { member_id, scope, reason } }, reason);
        await scopeRequest(ctx, member_id, scope, position, 'scope rejected');
      },
    },
    {
      method: 'POST',
      path: '/credentials/:member_id/scopes/:scope/revoke',
      caller: review,
      handler: async (ctx) => {
        const [member_id, scope] = [memberIdParam(ctx), scopeParam(ctx)];
        const { reason } = parse(reasonBody, ctx.request.body);
        const position = await decide(deps, ctx, { type: 'RevokeScope', data: { member_id, scope, reason } }, reason);
        await scopeRequest(ctx, member_id, scope, position, 'scope revoked');
      },
    },
  ];
}
