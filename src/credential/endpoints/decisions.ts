import { z } from 'zod';
import { expiryFields, expiryFieldsWithin, NOT_BOTH, notBoth } from '../expiry';
import { approveCommand, ApprovalLimits } from './approval';
import { CredentialCommand } from '../decider';
import { scopeParam } from '../params';
import { reasonSchema } from '../../shared/domain/reason';
import { DomainError } from '../../shared/domain/decider';
import { ConcurrencyConflict } from '../../shared/commands/errors';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { HttpError } from '../../shared/http/envelope';
import { AppContext } from '../../shared/http/context';
import { rememberPosition } from '../../shared/http/session';
import { asReviewer, ReviewerDeps } from './actors';

export type DecisionDeps = ReviewerDeps & ApprovalLimits;

/** docs/credentials.md, "Decisions in bulk": at most this many items in one request. */
export const MAX_DECISIONS = 500;
// How many items are decided at once: each is its own command on its own stream, and a request of
// 500 must neither take 500 round trips one after another nor hold 500 appends open together.
const IN_FLIGHT = 8;

const memberId = z.int('member_id must be a whole number').min(1, 'member_id must be at least 1');
const decision = z.enum(['approve', 'reject'], { error: 'decision must be approve or reject' });
const itemReason = reasonSchema.optional().meta({ description: 'Required to reject; recorded with an approval' });

const credentialItem = (maxDays: number) =>
  z
    .strictObject({
      member_id: memberId,
      decision,
      ...expiryFieldsWithin(maxDays),
      expires_at: expiryFields.expires_at.unwrap().nullable().optional().meta({ description: 'null: never expires' }),
      reason: itemReason,
    })
    .refine(notBoth, { error: NOT_BOTH })
    .refine((item) => item.decision === 'approve' || item.reason !== undefined, {
      error: 'a rejection needs its reason',
      path: ['reason'],
    })
    .refine(
      (item) => item.decision === 'approve' || (item.expires_at === undefined && item.expires_in_days === undefined),
      { error: 'a rejection takes no expiry', path: ['decision'] },
    );

const scopeItem = z
  .strictObject({ member_id: memberId, scope: scopeParam, decision, reason: itemReason })
  .refine((item) => item.decision === 'approve' || item.reason !== undefined, {
    error: 'a rejection needs its reason',
    path: ['reason'],
  });

const itemsOf = <T extends z.ZodType>(item: T, what: string) =>
  z.strictObject({
    items: z
      .array(item, { error: `items is required: a list of ${what}` })
      .min(1, 'items is empty: name at least one decision')
      .max(MAX_DECISIONS, `items holds at most ${MAX_DECISIONS} decisions: send the rest in another request`),
  });

const outcome = {
  member_id: z.int(),
  ok: z.boolean(),
  error: z
    .string()
    .optional()
    .meta({ description: 'Why this item was refused (as data.error of its single decision)' }),
  message: z.string().optional(),
};
const credentialResults = z.object({
  results: z.array(
    z.object({
      ...outcome,
      expires_at: z.iso
        .datetime()
        .nullable()
        .optional()
        .meta({ description: "An approved key's expiry as applied; null: never" }),
    }),
  ),
});
const scopeResults = z.object({ results: z.array(z.object({ ...outcome, scope: z.string() })) });

type Outcome = { ok: true } | { ok: false; error: string; message: string };

/** Runs `decide` over the items, at most IN_FLIGHT at a time, answering in the items' order. */
async function boundedMap<T, R>(items: readonly T[], decide: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await decide(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
  return results;
}

/**
 * One item, decided as the single decision would be (the same command, the same refusals), its
 * refusal told in its result rather than thrown: the others are decided whatever befell it. A
 * failure of the service itself (a store out of reach, a bug) still fails the request.
 */
async function decideOne(
  deps: DecisionDeps,
  ctx: AppContext,
  positions: string[],
  item: number,
  command: () => CredentialCommand,
  reason?: string,
): Promise<Outcome> {
  try {
    const { position } = await asReviewer(deps, ctx, command(), reason, item)();
    if (position) positions.push(position);
    return { ok: true };
  } catch (err) {
    if (err instanceof HttpError || err instanceof DomainError)
      return { ok: false, error: err.error, message: err.message };
    if (err instanceof ConcurrencyConflict)
      return { ok: false, error: 'concurrent_modification', message: 'the credential kept changing: decide it again' };
    throw err;
  }
}

/** Later reads of the caller wait for the last of the decisions (positions order as strings). */
function rememberLast(ctx: AppContext, positions: string[]): void {
  rememberPosition(
    ctx,
    positions.reduce<string | null>((last, p) => (last === null || p > last ? p : last), null),
  );
}

const summary = (results: Outcome[]) => {
  const refused = results.filter((r) => !r.ok).length;
  return `${results.length - refused} of ${results.length} decided${refused ? `, ${refused} refused (see each result)` : ''}`;
};

const review = { kind: 'admin', permission: 'credential.review' } as const;

/** Decisions in bulk: many applications or scope requests in one request, each its own command (docs/credentials.md). */
export function bulkDecisionEndpoints(deps: DecisionDeps): Endpoint[] {
  return [
    endpoint({
      method: 'POST',
      path: '/credentials/decisions',
      caller: review,
      summary: `Approve or reject up to ${MAX_DECISIONS} credential applications in one request, each as its own decision; one result per item, in order`,
      body: itemsOf(
        credentialItem(deps.maxKeyLifetimeDays),
        '{member_id, decision, expires_at?, expires_in_days?, reason?}',
      ),
      response: credentialResults,
      handler: async (ctx, { body: { items } }) => {
        const positions: string[] = [];
        const now = new Date();
        const results = await boundedMap(items, async (item, index) => {
          let expires_at: string | null = null;
          const command = (): CredentialCommand => {
            if (item.decision === 'reject')
              return { type: 'RejectCredential', data: { member_id: item.member_id, reason: item.reason! } };
            const approve = approveCommand(deps, item.member_id, item, now);
            expires_at = approve.data.expires_at;
            return approve;
          };
          const result = await decideOne(deps, ctx, positions, index, command, item.reason);
          const approved = result.ok && item.decision === 'approve' ? { expires_at } : {};
          return { member_id: item.member_id, ...result, ...approved };
        });
        rememberLast(ctx, positions);
        return { data: { results }, message: summary(results) };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/scope-requests/decisions',
      caller: review,
      summary: `Approve or reject up to ${MAX_DECISIONS} scope requests in one request, each as its own decision; one result per item, in order`,
      body: itemsOf(scopeItem, '{member_id, scope, decision, reason?}'),
      response: scopeResults,
      handler: async (ctx, { body: { items } }) => {
        const positions: string[] = [];
        const results = await boundedMap(items, async ({ member_id, scope, decision, reason }, index) => {
          const command = (): CredentialCommand =>
            decision === 'approve'
              ? { type: 'ApproveScope', data: { member_id, scope } }
              : { type: 'RejectScope', data: { member_id, scope, reason: reason! } };
          return { member_id, scope, ...(await decideOne(deps, ctx, positions, index, command, reason)) };
        });
        rememberLast(ctx, positions);
        return { data: { results }, message: summary(results) };
      },
    }),
  ];
}
