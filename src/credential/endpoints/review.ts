import { z } from 'zod';
import { applicationSchema, applicationView, CredentialDocument, scopeRequestSchema, scopeRequestView } from '../views';
import { credentialReads } from '../reads';
import { approvalExpirySchema, expiryTooFar } from '../expiry';
import { approveCommand } from './approval';
import { UsageLedger } from '../usage/ledger';
import { reviewedApplicationSchema } from '../usage/view';
import { reasonSchema } from '../../shared/domain/reason';
import { ReadModels, expectWritten } from '../../shared/projections/read-models';
import { endpoint, Endpoint, Refusal } from '../../shared/http/endpoints';
import { memberParams } from '../../shared/http/params';
import { memberScopeParams } from '../params';
import { concurrentChange } from '../../shared/http/schemas';
import { pageOf, pageQuery, paginate } from '../../shared/http/pagination';
import { decideThenRead, Written } from '../../shared/http/read-your-writes';
import { emptyBody } from '../../shared/http/validate';
import { asReviewer, credentialAfter, ReviewerDeps, unknownMember } from './actors';

export interface ReviewDeps extends ReviewerDeps {
  readModels: ReadModels;
  /** KEY_LIFETIME_DAYS: how long a key lives when the approval names no expiry; null: forever. */
  keyLifetimeDays: number | null;
  /** MAX_KEY_LIFETIME_DAYS: how far ahead an approval may set the expiry. */
  maxKeyLifetimeDays: number;
  usage: Pick<UsageLedger, 'lastUsed'>;
}

const reasonBody = z.strictObject({ reason: reasonSchema });

// The statuses a listing filters by are those its documents hold.
const statusQuery = (statuses: readonly string[]) =>
  z.object({
    status: z.enum(statuses, { error: `status must be one of ${statuses.join(', ')}` }).optional(),
    ...pageQuery,
  });

const APPLICATION_STATUSES = applicationSchema.shape.status.options;

// The search both review lists take: a username's part, or the start of an API id.
const searchQuery = {
  q: z
    .string()
    .trim()
    .min(1, 'q is empty: leave it out to list everything')
    .max(100, 'q is at most 100 characters')
    .optional()
    .meta({ description: "Only those whose member's username holds it (any case), or whose API id starts with it" }),
};

const credentialStatusQuery = statusQuery(APPLICATION_STATUSES).extend(searchQuery);

/** The search of the review list: part of a username, or the start of an API id. */
const matches = (q: string) => {
  const wanted = q.toLowerCase();
  return (doc: CredentialDocument) =>
    doc.username.toLowerCase().includes(wanted) || (doc.apiid?.startsWith(wanted) ?? false);
};

/** How many of what the search found are in each status, whatever the status filter. */
function countsOf<S extends string>(statuses: readonly S[], docs: { status: S }[]): Record<S, number> {
  const counts = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  for (const doc of docs) counts[doc.status] += 1;
  return counts;
}

/** The counts' schema in the contract: one whole number per status. */
const countsSchema = <S extends string>(statuses: readonly S[], what: string) =>
  z
    .object(Object.fromEntries(statuses.map((s) => [s, z.int().min(0)])) as Record<S, z.ZodInt>)
    .meta({ description: `How many ${what} the search (q) finds in each status, whatever the status filter` });

const SCOPE_STATUSES = scopeRequestSchema.shape.status.options;
const scopeStatusQuery = statusQuery(SCOPE_STATUSES).extend(searchQuery);
const scopeRequestsPage = pageOf(scopeRequestSchema).extend({ counts: countsSchema(SCOPE_STATUSES, 'scope requests') });

// A reviewer's screen offers the expiry an approval without one gets: the listing says it.
const applicationsPage = pageOf(reviewedApplicationSchema).extend({
  key_lifetime_days: z.number().int().nullable().meta({
    description: 'Days a key lives when its approval names no expiry (KEY_LIFETIME_DAYS); null: it never expires',
  }),
  counts: countsSchema(APPLICATION_STATUSES, 'applications'),
});

const review = { kind: 'admin', permission: 'credential.review' } as const;

/** The administrators' review of credential applications and scope requests (docs/credentials.md). */
export function credentialReviewEndpoints(deps: ReviewDeps): Endpoint[] {
  const reads = credentialReads(deps.readModels);
  // What a decision answers: the application or scope request it changed, once its read model holds the change.
  const answer = credentialAfter(deps.readModels);
  const scopeRequest =
    (member_id: number, scope: string, message: string) =>
    async ({ position }: Written) => {
      const [doc, usernames] = await Promise.all([
        reads.scopeRequest(member_id, scope, position),
        reads.usernames([member_id]),
      ]);
      const username = usernames.get(member_id) ?? null;
      return {
        data: scopeRequestView(expectWritten(doc), username),
        message: `${scope} for ${username ?? `member ${member_id}`} ${message}`,
      };
    };
  const wrongState = (what: string, ...reasons: [string, ...string[]]): Refusal => ({
    status: 422,
    reasons,
    when: `the ${what} is not in a state that allows this decision (${reasons.join(', ')})`,
  });
  const scopeNotDecidable = wrongState(
    'scope request',
    'credential_not_active',
    'scope_not_pending',
    'scope_not_approved',
  );
  // Rejecting an application and revoking a credential: one decision with a reason, told apart by its command.
  const decisionWithReason = (decision: {
    action: string;
    command: 'RejectCredential' | 'RevokeCredential';
    summary: string;
    notDecidable: Refusal;
    answered: string;
  }) =>
    endpoint({
      method: 'POST',
      path: `/credentials/:member_id/${decision.action}`,
      caller: review,
      summary: decision.summary,
      params: memberParams,
      body: reasonBody,
      response: applicationSchema,
      refusals: [decision.notDecidable, unknownMember, concurrentChange],
      handler: async (ctx, { params: { member_id }, body: { reason } }) => {
        const command = { type: decision.command, data: { member_id, reason } };
        return decideThenRead(ctx, asReviewer(deps, ctx, command, reason), answer(member_id, decision.answered));
      },
    });
  // Rejecting and revoking a scope: one decision with a reason, told apart by its command.
  const scopeDecisionWithReason = (decision: {
    action: string;
    command: 'RejectScope' | 'RevokeScope';
    summary: string;
    answered: string;
  }) =>
    endpoint({
      method: 'POST',
      path: `/credentials/:member_id/scopes/:scope/${decision.action}`,
      caller: review,
      summary: decision.summary,
      params: memberScopeParams,
      body: reasonBody,
      response: scopeRequestSchema,
      refusals: [scopeNotDecidable, unknownMember, concurrentChange],
      handler: async (ctx, { params: { member_id, scope }, body: { reason } }) => {
        const command = { type: decision.command, data: { member_id, scope, reason } };
        return decideThenRead(
          ctx,
          asReviewer(deps, ctx, command, reason),
          scopeRequest(member_id, scope, decision.answered),
        );
      },
    });

  return [
    endpoint({
      method: 'GET',
      path: '/credentials',
      caller: review,
      summary:
        'List credential applications, optionally by status and a search of usernames and API ids, a page at a time in the order of member ids, with the count in each status',
      query: credentialStatusQuery,
      response: applicationsPage,
      handler: async (_ctx, { query }) => {
        const [all, lastUsed] = await Promise.all([reads.credentials({}), deps.usage.lastUsed()]);
        const found = query.q ? all.filter(matches(query.q)) : all;
        const page = paginate(
          query.status ? found.filter((doc) => doc.status === query.status) : found,
          (doc) => [doc.member_id, ''],
          query,
        );
        const list = page.list.map((c) => ({ ...applicationView(c), last_used_at: lastUsed.get(c.member_id) ?? null }));
        return {
          data: {
            list,
            next: page.next,
            key_lifetime_days: deps.keyLifetimeDays,
            counts: countsOf(APPLICATION_STATUSES, found),
          },
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/credentials/:member_id/approve',
      caller: review,
      summary: "Approve a member's credential application, optionally with the key's expiry",
      params: memberParams,
      body: approvalExpirySchema(deps.maxKeyLifetimeDays),
      response: applicationSchema,
      refusals: [
        wrongState('application', 'credential_not_pending'),
        { status: 422, reasons: ['expiry_in_past'], when: 'expires_at is not in the future (expiry_in_past)' },
        expiryTooFar,
        unknownMember,
        concurrentChange,
      ],
      handler: async (ctx, { params: { member_id }, body }) => {
        const command = approveCommand(deps, member_id, body, new Date());
        return decideThenRead(
          ctx,
          asReviewer(deps, ctx, command),
          answer(member_id, 'application approved: the member can claim the credential'),
        );
      },
    }),
    decisionWithReason({
      action: 'reject',
      command: 'RejectCredential',
      summary: "Reject a member's credential application, with the reason",
      notDecidable: wrongState('application', 'credential_not_pending'),
      answered: 'application rejected',
    }),
    decisionWithReason({
      action: 'revoke',
      command: 'RevokeCredential',
      summary: "Revoke a member's credential, active or approved and not yet claimed, and its scopes, with the reason",
      notDecidable: wrongState('credential', 'credential_not_active'),
      answered: 'credential revoked: it is refused from now on',
    }),
    endpoint({
      method: 'GET',
      path: '/scope-requests',
      caller: review,
      summary:
        'List scope requests, optionally by status and a search of usernames and API ids, a page at a time in the order of member ids, then scope names, with the count in each status',
      query: scopeStatusQuery,
      response: scopeRequestsPage,
      handler: async (_ctx, { query }) => {
        const [requests, credentials] = await Promise.all([reads.scopeRequests({}), reads.credentials({})]);
        const members = new Map(credentials.map((doc) => [doc.member_id, doc]));
        const wanted = query.q ? matches(query.q) : null;
        const found = wanted
          ? requests.filter((doc) => members.has(doc.member_id) && wanted(members.get(doc.member_id)!))
          : requests;
        const page = paginate(
          query.status ? found.filter((doc) => doc.status === query.status) : found,
          (doc) => [doc.member_id, doc.scope],
          query,
        );
        const list = page.list.map((doc) => scopeRequestView(doc, members.get(doc.member_id)?.username ?? null));
        return { data: { list, next: page.next, counts: countsOf(SCOPE_STATUSES, found) } };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/credentials/:member_id/scopes/:scope/approve',
      caller: review,
      summary: "Approve one scope of a member's credential",
      params: memberScopeParams,
      body: emptyBody,
      response: scopeRequestSchema,
      refusals: [scopeNotDecidable, unknownMember, concurrentChange],
      handler: async (ctx, { params: { member_id, scope } }) => {
        return decideThenRead(
          ctx,
          asReviewer(deps, ctx, { type: 'ApproveScope', data: { member_id, scope } }),
          scopeRequest(member_id, scope, 'approved'),
        );
      },
    }),
    scopeDecisionWithReason({
      action: 'reject',
      command: 'RejectScope',
      summary: "Reject one scope of a member's credential, with the reason",
      answered: 'rejected',
    }),
    scopeDecisionWithReason({
      action: 'revoke',
      command: 'RevokeScope',
      summary: "Revoke one approved scope of a member's credential, with the reason",
      answered: 'revoked',
    }),
  ];
}
