import { Slice } from '../shared/slice';
import { approvalRuleEvents } from './event-definitions';
import { approvalRuleEndpoints, ApprovalRuleDeps } from './endpoints';
import { approvalRulesProjection } from './projection';
import { memberGroupExists } from './approve';

/**
 * Approval rules: administrators say which applications and scope requests are approved at once.
 * The approvals themselves are the credential slice's commands, made in the member's request with
 * the rule as actor (docs/credentials.md, "Approval rules"); this slice keeps the rules.
 */
export const approvalRuleSlice: Slice<Omit<ApprovalRuleDeps, 'memberGroupExists'>> = {
  name: 'approval-rule',
  events: approvalRuleEvents,
  projections: [approvalRulesProjection],
  endpoints: (deps) => approvalRuleEndpoints({ ...deps, memberGroupExists: memberGroupExists(deps.readModels) }),
};
