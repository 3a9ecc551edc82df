import { asMember } from './actors';
import { z } from 'zod';
import type { UsageLedger } from '../usage/ledger';
import { credentialSchema, credentialView, scopeSchema } from '../views';
import { claimCredential, decideCredential, IssuedKey, rotateKey } from '../commands';
import { graceSecondsSchema } from '../grace-period';
import { SCOPE_STATUSES } from '../scope-lifecycle';
import { reasonSchema } from '../../shared/domain/reason';
import { SCOPE_NAMES, SCOPES } from '../scopes';
import { ReadModels } from '../../shared/projections/read-models';
import { EventStore } from '../../stores/ports';
import { endpoint, Endpoint, Refusal } from '../../shared/http/endpoints';
import { memberOf } from '../../shared/http/guards';
import { decideThenRead, Written } from '../../shared/http/read-your-writes';
import { withRouteHints } from './route-hints';
import { applicationBody } from './applicant';
import { approveByRule, ByRuleDeps } from './by-rule';
import { credentialReads } from '../reads';
import { sessionOf } from '../../shared/http/session';
import { concurrentChange } from '../../shared/http/schemas';
import { pageOf, paginate, wholeListQuery } from '../../shared/http/pagination';
import { emptyBody } from '../../shared/http/validate';

export interface CredentialDeps {
  events: EventStore;
  readModels: ReadModels;
  keyLifetimeDays: number | null;
  maxKeyLifetimeDays: number;
  usage: Pick<UsageLedger, 'usage' | 'lastUsed' | 'recentCalls'>;
  /** Whether a member exists, from the member slice (src/compose.ts). */
  memberExists(id: number): Promise<boolean>;
  /** An administrator's username, from the access slice (src/compose.ts). */
  adminName(id: number): Promise<string | null>;
  /** The enabled approval rule that approves an application or scope request, from the approval-rule slice. */
  approvalRuleFor?: ByRuleDeps['approvalRuleFor'];
}

const rotateSchema = z.strictObject({
  grace_seconds: graceSecondsSchema.default(0),
});

const scopeRequestSchema = z.strictObject({
  scopes: z
    // Plain strings to the validation, so that an unknown name is unknown_scope, not a shape error;
    // the names themselves to a client generated from the contract.
    .array(z.string({ error: 'each scope must be a string' }).meta({ override: { enum: SCOPE_NAMES } }), {
      error: 'scopes is required and must be an array of scope names',
    })
    .min(1, 'name at least one scope')
    .max(SCOPE_NAMES.length, `name at most ${SCOPE_NAMES.length} scopes`)
    .meta({ override: { uniqueItems: true } }),
  reason: reasonSchema,
});

const issuedKeySchema = z
  .object({
    apiid: z.string().meta({ description: 'Send as X-API-ID' }),
    apikey: z.string().meta({ description: 'Send as X-API-Key; shown this once, only its SHA-256 digest is kept' }),
  })
  .meta({ id: 'IssuedKey' });

const rotatedKeySchema = issuedKeySchema
  .extend({
    previous_key_valid_until: z.iso
      .datetime()
      .nullable()
      .meta({ description: 'Until when the old key is still accepted' }),
  })
  .meta({ id: 'RotatedKey' });

const scopeOfferSchema = z.object({
  name: z.string(),
  description: z.string(),
  status: z.enum(['none', ...SCOPE_STATUSES]),
});

const notActive: Refusal = {
  status: 422,
  reasons: ['credential_not_active'],
  when: 'the credential is not in a state that allows this (credential_not_active; see the dashboard)',
};

/** The member's credential and scopes (docs/credentials.md). */
export function developerCredentialEndpoints(deps: CredentialDeps): Endpoint[] {
  const reads = credentialReads(deps.readModels);
  // The member's credential, once its read model holds the change just decided.
  const credential =
    (member_id: number) =>
    async ({ position }: Written) =>
      reads.credential(member_id, position);

  const untilKeyWorks = async <Issued extends IssuedKey>(issued: Issued) => {
    await deps.readModels.untilKeyWorks(issued.position);
    return issued;
  };

  return [
    endpoint({
      method: 'POST',
      path: '/developer/credential',
      caller: { kind: 'member' },
      summary:
        'Apply for API credentials, optionally saying who asks and why; an administrator reviews the application, or an approval rule approves it at once',
      body: applicationBody,
      response: credentialSchema,
      refusals: [
        {
          status: 422,
          reasons: ['credential_already_applied'],
          when: 'an application is pending, or approved or active and not expired (credential_already_applied)',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const { member, context } = asMember(ctx);
        const apply = async () => {
          const data = { member_id: member.id, username: member.username, now: context.now.toISOString(), ...body };
          const { position } = await withRouteHints(() =>
            decideCredential(deps.events, { type: 'ApplyCredential', data }, context),
          );
          return { position: (await approveByRule(deps, ctx, member.id, { applies_to: 'credential' })) ?? position };
        };
        const applied = await decideThenRead(ctx, apply, credential(member.id));
        const rule = applied?.approved_by_rule;
        return {
          data: credentialView(applied),
          message: rule
            ? `applied and approved at once by the rule "${rule.name}": claim the credential`
            : 'applied: an administrator will review the application',
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/claim',
      caller: { kind: 'member' },
      summary: 'Claim the approved credential: the API id and the API key, shown this once',
      secretInAnswer: true,
      body: emptyBody,
      response: issuedKeySchema,
      refusals: [
        {
          status: 422,
          reasons: ['credential_not_approved', 'credential_already_claimed', 'credential_expired'],
          when: 'the application is not approved (credential_not_approved), was claimed already (credential_already_claimed), or its approval expired before the claim (credential_expired)',
        },
        concurrentChange,
      ],
      handler: async (ctx) => {
        const { member, context } = asMember(ctx);
        // The clear key is answered whatever the read models do: it waits at most for the key ring.
        const issued = await decideThenRead(
          ctx,
          () => withRouteHints(() => claimCredential(deps.events, member.id, context)),
          untilKeyWorks,
        );
        return {
          data: { apiid: issued.apiid, apikey: issued.apikey },
          message: 'claimed: the API key is shown this once, store it now',
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/rotate',
      caller: { kind: 'member' },
      summary: 'Replace the API key; the old one is refused now or after grace_seconds',
      secretInAnswer: true,
      body: rotateSchema,
      response: rotatedKeySchema,
      refusals: [
        notActive,
        {
          status: 422,
          reasons: ['credential_expired', 'invalid_grace_seconds'],
          when: 'the credential expired: no new key would be accepted (credential_expired); grace_seconds is out of its bounds (invalid_grace_seconds)',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body: { grace_seconds } }) => {
        const { member, context } = asMember(ctx);
        const issued = await decideThenRead(
          ctx,
          () => withRouteHints(() => rotateKey(deps.events, member.id, grace_seconds, context)),
          untilKeyWorks,
        );
        return {
          data: {
            apiid: issued.apiid,
            apikey: issued.apikey,
            previous_key_valid_until: issued.previous_key_valid_until,
          },
          message: 'rotated: the new API key is shown this once, store it now',
        };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/developer/scopes',
      caller: { kind: 'member' },
      summary: "Every scope, with its description and this member's status",
      query: z.object(wholeListQuery),
      response: pageOf(scopeOfferSchema),
      handler: async (ctx, { query }) => {
        const member = memberOf(ctx);
        const credential = await reads.credential(member.id, sessionOf(ctx).position);
        const list = SCOPE_NAMES.map((name) => ({
          name,
          description: SCOPES[name],
          status: credential?.scopes.find((s) => s.name === name)?.status ?? ('none' as const),
        }));
        return { data: paginate(list, ({ name }) => [SCOPE_NAMES.indexOf(name), name], query) };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/scopes',
      caller: { kind: 'member' },
      summary: 'Request scopes for the claimed credential, one request each, with the purpose of use',
      body: scopeRequestSchema,
      response: z.object({ scopes: z.array(scopeSchema) }),
      refusals: [
        notActive,
        {
          status: 422,
          reasons: ['unknown_scope', 'no_scopes', 'duplicate_scope', 'scope_already_requested'],
          when: 'a scope is unknown, named twice, or already pending or approved: nothing is requested; data.error says which',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body: { scopes, reason } }) => {
        const { member, context } = asMember(ctx);
        const request = async () => {
          let { position } = await withRouteHints(() =>
            decideCredential(
              deps.events,
              { type: 'RequestScopes', data: { member_id: member.id, scopes, reason } },
              context,
            ),
          );
          for (const scope of scopes)
            position = (await approveByRule(deps, ctx, member.id, { applies_to: 'scope', scope })) ?? position;
          return { position };
        };
        const requested = await decideThenRead(ctx, request, credential(member.id));
        return {
          data: { scopes: requested?.scopes ?? [] },
          message: 'requested: an administrator will review each scope',
        };
      },
    }),
  ];
}
