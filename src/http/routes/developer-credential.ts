import { z } from 'zod';
import { claimCredential, decideCredential, rotateKey } from '../../commands/credentials';
import { MAX_GRACE_SECONDS } from '../../domain/credential';
import { reasonSchema } from '../../domain/reason';
import { SCOPE_NAMES, SCOPES } from '../../domain/scopes';
import { ReadModels } from '../../projections/read-models';
import { EventStore } from '../../stores/ports';
import { commandContext } from '../command-context';
import { AppContext } from '../context';
import { Endpoint } from '../endpoints';
import { respond } from '../envelope';
import { memberOf } from '../guards';
import { rememberPosition, sessionOf } from '../session';
import { emptyBody, parse } from '../validate';
import { credentialView } from '../views';

export interface CredentialDeps {
  events: EventStore;
  readModels: ReadModels;
}

const rotateSchema = z.strictObject({
  grace_seconds: z
    .number({ error: 'grace_seconds must be a number of seconds' })
    .int('grace_seconds must be a whole number of seconds')
    .min(0, 'grace_seconds must be at least 0')
    .max(MAX_GRACE_SECONDS, `grace_seconds must be at most ${MAX_GRACE_SECONDS} (one day)`)
    .default(0),
});

const scopeRequestSchema = z.strictObject({
  scopes: z
    .array(z.string({ error: 'each scope must be a string' }), { error: 'scopes is required and must be an array of scope names' })
    .min(1, 'name at least one scope')
    .max(SCOPE_NAMES.length, `name at most ${SCOPE_NAMES.length} scopes`),
  reason: reasonSchema,
});

function asMember(ctx: AppContext) {
  const member = memberOf(ctx);
  return { member, context: commandContext(ctx, { kind: 'member', id: member.id }) };
}

/** The member's credential and scopes (specification §4.1, DESIGN §4). */
export function developerCredentialEndpoints(deps: CredentialDeps): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/developer/credential',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        parse(emptyBody, ctx.request.body);
        const { member, context } = asMember(ctx);
        const { position } = await decideCredential(deps.events, { type: 'ApplyCredential', data: { member_id: member.id, username: member.username } }, context);
        rememberPosition(ctx, position);
        respond(ctx, credentialView(await deps.readModels.credential(member.id, position)), 'applied: an administrator will review the application');
      },
    },
    {
      method: 'POST',
      path: '/developer/claim',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        parse(emptyBody, ctx.request.body);
        const { member, context } = asMember(ctx);
        const issued = await claimCredential(deps.events, member.id, context);
        rememberPosition(ctx, issued.position);
        // Once this answers, the key works against this instance.
        await deps.readModels.waitFor(issued.position);
        respond(ctx, { apiid: issued.apiid, apikey: issued.apikey }, 'claimed: the API key is shown this once, store it now');
      },
    },
    {
      method: 'POST',
      path: '/developer/rotate',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        const { grace_seconds } = parse(rotateSchema, ctx.request.body);
        const { member, context } = asMember(ctx);
        const issued = await rotateKey(deps.events, member.id, grace_seconds, context);
        rememberPosition(ctx, issued.position);
        await deps.readModels.waitFor(issued.position);
        respond(
          ctx,
          { apiid: issued.apiid, apikey: issued.apikey, previous_key_valid_until: issued.previous_key_valid_until },
          'rotated: the new API key is shown this once, store it now',
        );
      },
    },
    {
      method: 'GET',
      path: '/developer/scopes',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        const member = memberOf(ctx);
        const credential = await deps.readModels.credential(member.id, sessionOf(ctx).position);
        const list = SCOPE_NAMES.map((name) => ({
          name,
          description: SCOPES[name],
          status: credential?.scopes.find((s) => s.name === name)?.status ?? 'none',
        }));
        respond(ctx, { list });
      },
    },
    {
      method: 'POST',
      path: '/developer/scopes',
      caller: { kind: 'member' },
      handler: async (ctx) => {
        const { scopes, reason } = parse(scopeRequestSchema, ctx.request.body);
        const { member, context } = asMember(ctx);
        const { position } = await decideCredential(deps.events, { type: 'RequestScopes', data: { member_id: member.id, scopes, reason } }, context);
        rememberPosition(ctx, position);
        const credential = await deps.readModels.credential(member.id, position);
        respond(ctx, { scopes: credential?.scopes ?? [] }, 'requested: an administrator will review each scope');
      },
    },
  ];
}
