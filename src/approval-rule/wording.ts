import type { EventDefinition } from '../shared/slice';
import type { ApprovalRuleEvent } from './decider';

type Wording = Omit<EventDefinition, 'schema' | 'upcasters'>;

/** Who a rule is for, in words, from its data as stored. */
export function whoOf(data: Record<string, unknown>): string {
  if (data.who === 'member_group') return `members of member group ${String(data.member_group_id)}`;
  if (data.who === 'email_domain') return `members with an address at ${String(data.email_domain)}`;
  return 'every member';
}

const whatOf = (data: Record<string, unknown>) =>
  data.applies_to === 'scope' ? `requests of the scope ${String(data.scope)}` : 'credential applications';

/** How the audit trail tells of approval rules: by id and name, as the approvals they make do. */
export const approvalRuleWording: Record<ApprovalRuleEvent['type'], Wording> = {
  ApprovalRuleDefined: {
    describe: (data) =>
      `defined the approval rule "${String(data.name)}" (${String(data.rule_id)}): approve ${whatOf(data)} of ${whoOf(data)} at once${
        typeof data.expires_in_days === 'number' ? `, keys expiring after ${data.expires_in_days} days` : ''
      }`,
  },
  ApprovalRuleDisabled: {
    describe: (data) => `disabled the approval rule "${String(data.name)}" (${String(data.rule_id)})`,
  },
};
