import { ApprovalRuleDocument } from './projection';

/** What an application or a scope request is, as rules judge it. */
export type RuleSubject = { applies_to: 'credential' } | { applies_to: 'scope'; scope: string };

/** What rules know of the member who asks. */
export interface Applicant {
  /** The confirmed e-mail address, if any. */
  email: string | null;
  /** The member groups the member is in (the platform records none yet: docs/credentials.md). */
  member_group_ids: readonly number[];
}

/** Whether a rule approves this subject for this member. */
export function ruleMatches(rule: ApprovalRuleDocument, subject: RuleSubject, member: Applicant): boolean {
  if (!rule.enabled || rule.applies_to !== subject.applies_to) return false;
  if (subject.applies_to === 'scope' && rule.scope !== subject.scope) return false;
  switch (rule.who) {
    case 'everyone':
      return true;
    case 'member_group':
      return rule.member_group_id !== null && member.member_group_ids.includes(rule.member_group_id);
    case 'email_domain':
      return member.email !== null && member.email.toLowerCase().endsWith(`@${rule.email_domain}`);
  }
}

/** The rule that approves, of those matching: the oldest (ties by id), so the same one always answers. */
export function firstMatching(
  rules: readonly ApprovalRuleDocument[],
  subject: RuleSubject,
  member: Applicant,
): ApprovalRuleDocument | null {
  const matching = rules.filter((rule) => ruleMatches(rule, subject, member));
  matching.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  return matching[0] ?? null;
}
