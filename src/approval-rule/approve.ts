import { accessReads } from '../access';
import { memberReads } from '../member';
import { ReadModels } from '../shared/projections/read-models';
import { firstMatching, RuleSubject } from './match';
import { approvalRulesProjection } from './projection';

/** The rule an application or scope request matched: what the approval records and how long the key lives. */
export interface MatchedRule {
  id: string;
  name: string;
  expires_in_days: number | null;
}

/**
 * The enabled rule that approves this member's application or scope request, if one does: read
 * from the rules and members read models as of every event committed before the call, so a rule
 * defined a moment ago applies. Members are in no member group the platform records yet, so a
 * member_group rule matches no one (docs/credentials.md).
 */
export function approvalRuleFor(readModels: ReadModels) {
  return async (member_id: number, subject: RuleSubject): Promise<MatchedRule | null> => {
    const rules = await readModels.allLatest(approvalRulesProjection, { enabled: true });
    if (rules.length === 0) return null;
    const member = await memberReads(readModels).member(member_id);
    const rule = firstMatching(rules, subject, { email: member?.email ?? null, member_group_ids: [] });
    return rule && { id: rule.id, name: rule.name, expires_in_days: rule.expires_in_days };
  };
}

/** Whether a member group exists, for a rule that names one. */
export const memberGroupExists = (readModels: ReadModels) => async (id: number) =>
  (await accessReads(readModels).memberGroups()).some((group) => group.id === id);
