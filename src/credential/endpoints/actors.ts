import { decideCredential } from '../commands';
import { CredentialCommand, credentialStream } from '../decider';
import { DomainError } from '../../shared/domain/decider';
import { credentialReads } from '../reads';
import { applicationView, ApplicationView } from '../views';
import { ReadModels, expectWritten } from '../../shared/projections/read-models';
import { EventStore } from '../../stores/ports';
import { CommandContext } from '../../shared/commands/context';
import { commandContext } from '../../shared/http/command-context';
import { AppContext } from '../../shared/http/context';
import { HttpError } from '../../shared/http/envelope';
import { Refusal } from '../../shared/http/endpoints';
import { adminOf, memberOf } from '../../shared/http/guards';
import { Written } from '../../shared/http/read-your-writes';

export const unknownMember: Refusal = {
  status: 404,
  reasons: ['member_not_found'],
  when: 'there is no member with this id (member_not_found)',
};

/**
 * A decision about a member who does not exist is a wrong id, not a credential to apply for first:
 * the administrator is told so before the credential's decider is asked.
 */
async function requireKnownMember(memberExists: ReviewerDeps['memberExists'], memberId: number): Promise<void> {
  if (await memberExists(memberId)) return;
  throw new HttpError(
    404,
    'member_not_found',
    `there is no member ${memberId}: check the id in the list of applications`,
  );
}

/** A member deciding about their own credential: the member, and the command context naming them as actor. */
export function asMember(ctx: AppContext) {
  const member = memberOf(ctx);
  return { member, context: commandContext(ctx, { kind: 'member', id: member.id }) };
}

export interface ReviewerDeps {
  events: EventStore;
  /** Asked of the member slice by the composition root: this slice does not read members. */
  memberExists(id: number): Promise<boolean>;
  /** An administrator's username, asked of the access slice by the composition root; null for one unknown. */
  adminName(id: number): Promise<string | null>;
}

// How far back the member's stream is searched for the decision that made a reviewer's stale.
const LOOK_BACK = 50;

/**
 * The administrators' decision a stale decision came too late for (another tab, another
 * administrator): the last event an administrator recorded on the same matter (the scope named,
 * or the credential itself), with who and when; null when no administrator decided it.
 */
async function decisionBefore(
  deps: ReviewerDeps,
  command: CredentialCommand,
): Promise<{ decided_by: string | null; decided_at: string } | null> {
  const scope = 'scope' in command.data ? command.data.scope : undefined;
  const events = await deps.events.readStream(credentialStream(command.data.member_id), {
    direction: 'backwards',
    maxCount: LOOK_BACK,
  });
  const decision = events.find((e) => ['admin', 'rule'].includes(e.metadata.actor.kind) && e.data.scope === scope);
  const rule = decision?.data.rule as { name: string } | null | undefined;
  if (decision && rule) return { decided_by: `the approval rule "${rule.name}"`, decided_at: decision.metadata.time };
  if (!decision || typeof decision.metadata.actor.id !== 'number') return null;
  return { decided_by: await deps.adminName(decision.metadata.actor.id), decided_at: decision.metadata.time };
}

/** A refusal for a matter no longer pending, with who decided it and when, in its words and its data. */
async function staleRefusal(deps: ReviewerDeps, command: CredentialCommand, err: DomainError): Promise<Error> {
  const decision = await decisionBefore(deps, command);
  if (!decision) return err;
  const by = decision.decided_by ?? 'an administrator no longer known';
  return new HttpError(
    422,
    err.error,
    `${err.message}: ${by} decided it at ${decision.decided_at}`,
    err.problems,
    undefined,
    decision,
  );
}

/**
 * The context of one item of a request that decides many (decisions in bulk): event ids derive
 * from the request id (or idempotency key), the stream and its revision, so two items on one
 * stream would otherwise be taken for a retry of each other and the second recorded as the first.
 * The item's number keeps its events apart and still names the request they came with.
 */
function itemOf(context: CommandContext, item: number | undefined): CommandContext {
  if (item === undefined) return context;
  const idempotency = context.idempotency && { ...context.idempotency, key: `${context.idempotency.key}#${item}` };
  return { ...context, requestId: `${context.requestId}#${item}`, ...(idempotency && { idempotency }) };
}

/**
 * An administrator's decision about a member's credential: the command, with the administrator as
 * actor and the reason in the metadata. Too late for a matter decided meanwhile, it is refused with
 * who decided it and when (`decided_by`, `decided_at`).
 */
export function asReviewer(
  deps: ReviewerDeps,
  ctx: AppContext,
  command: CredentialCommand,
  reason?: string,
  item?: number,
) {
  return async () => {
    await requireKnownMember(deps.memberExists, command.data.member_id);
    try {
      return await decideCredential(
        deps.events,
        command,
        itemOf(commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id }, reason), item),
      );
    } catch (err) {
      if (err instanceof DomainError && err.error.endsWith('_not_pending'))
        throw await staleRefusal(deps, command, err);
      throw err;
    }
  };
}

/**
 * What a decision about a member's credential answers: the credential, once its read model holds
 * the change, and what was decided, after whose it is (`outcome` may read the credential as decided).
 */
export function credentialAfter(readModels: ReadModels) {
  const reads = credentialReads(readModels);
  // The message names whose credential it is: an administrator deciding down a queue sees which one changed.
  return (member_id: number, outcome: string | ((credential: ApplicationView) => string)) =>
    async ({ position }: Written) => {
      const data = applicationView(expectWritten(await reads.credential(member_id, position)));
      return { data, message: `${data.username}'s ${typeof outcome === 'string' ? outcome : outcome(data)}` };
    };
}
