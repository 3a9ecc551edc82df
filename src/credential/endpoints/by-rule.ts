import { decideCredential } from '../commands';
import { CredentialCommand } from '../decider';
import { DomainError } from '../../shared/domain/decider';
import { ProjectionLag } from '../../shared/projections/lag';
import { commandContext } from '../../shared/http/command-context';
import { AppContext } from '../../shared/http/context';
import { EventStore, Position } from '../../stores/ports';
import { approveCommand, ApprovalLimits } from './approval';

/** What an approval rule approves: an application, or the request of one scope. */
export type RuleSubject = { applies_to: 'credential' } | { applies_to: 'scope'; scope: string };

/** The approval rule an application or scope request matched (the approval-rule slice finds it). */
export interface MatchedRule {
  id: string;
  name: string;
  expires_in_days: number | null;
}

export interface ByRuleDeps extends ApprovalLimits {
  events: EventStore;
  /** The enabled rule that approves this, if any: wired by the composition root to the approval-rule slice. */
  approvalRuleFor?(member_id: number, subject: RuleSubject): Promise<MatchedRule | null>;
}

/**
 * Approves at once, in the member's own request, what a rule approves: a command of its own after
 * the member's, with the rule as its actor (`{kind: 'rule', id}`) and the rule's id and name in the
 * event, so the audit trail tells who asked and which rule, not which administrator, said yes. The
 * decider stays pure: the rule was matched before, and the command carries it. A rule that cannot
 * approve (an expiry now beyond MAX_KEY_LIFETIME_DAYS, a decision that came first), or whose rules
 * the read models cannot tell now, leaves the matter pending for an administrator. Answers the approval's position, null when none was made.
 */
export async function approveByRule(
  deps: ByRuleDeps,
  ctx: AppContext,
  member_id: number,
  subject: RuleSubject,
): Promise<Position | null> {
  // The member's own command is recorded already: rules the read models cannot tell yet (the
  // projector behind or down) leave the matter pending for an administrator, as no rule would.
  const rule = await deps.approvalRuleFor?.(member_id, subject).catch((err: unknown) => {
    if (err instanceof ProjectionLag) return null;
    throw err;
  });
  if (!rule) return null;
  const context = commandContext(ctx, { kind: 'rule', id: rule.id });
  const ref = { id: rule.id, name: rule.name };
  try {
    const command: CredentialCommand =
      subject.applies_to === 'credential'
        ? withRule(
            approveCommand(
              deps,
              member_id,
              rule.expires_in_days === null ? {} : { expires_in_days: rule.expires_in_days },
              context.now,
            ),
            ref,
          )
        : { type: 'ApproveScope', data: { member_id, scope: subject.scope, rule: ref } };
    return (await decideCredential(deps.events, command, context)).position;
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

const withRule = (
  command: ReturnType<typeof approveCommand>,
  rule: { id: string; name: string },
): CredentialCommand => ({
  ...command,
  data: { ...command.data, rule },
});
