// The approval-rule slice's public face: what the composition root wires into the credential slice.
export { approvalRuleFor, type MatchedRule } from './approve';
export type { RuleSubject } from './match';
