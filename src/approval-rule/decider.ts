import { z } from 'zod';
import { Decider, DomainError } from '../shared/domain/decider';
import { isLabel } from '../shared/domain/labels';
import type { EventOf, EventSchemas } from '../shared/domain/events';

/**
 * An approval rule: an administrator holding credential.review says which applications (or
 * requests of one scope) are approved at once, and for whom. One stream per rule: defined once,
 * disabled once; a disabled rule approves nothing more and is never enabled again (define another).
 */
export const approvalRuleStream = (ruleId: string): string => `approval_rule-${ruleId}`;

export const APPLIES_TO = ['credential', 'scope'] as const;
export const WHO = ['everyone', 'member_group', 'email_domain'] as const;
/** The longest a rule may set a key's lifetime to, whatever MAX_KEY_LIFETIME_DAYS allows (docs/rules.md). */
export const MAX_RULE_DAYS = 3650;

/** What a rule says, as its events record it and its view shows it. */
export const ruleDefinitionFields = {
  name: z.string(),
  applies_to: z.enum(APPLIES_TO),
  /** The scope whose requests it approves; null for a rule about applications. */
  scope: z.string().nullable(),
  who: z.enum(WHO),
  member_group_id: z.int().nullable(),
  /** Lower case, without the @: members whose confirmed address ends in @<domain>. */
  email_domain: z.string().nullable(),
  /** How long the approved key lives; null: as an approval without expiry (KEY_LIFETIME_DAYS). */
  expires_in_days: z.int().nullable(),
};

const definitionSchema = z.object({ rule_id: z.string(), ...ruleDefinitionFields });
export type ApprovalRuleDefinition = z.infer<typeof definitionSchema>;

export const approvalRuleEventSchemas = {
  ApprovalRuleDefined: definitionSchema,
  ApprovalRuleDisabled: z.object({ rule_id: z.string(), name: z.string() }),
} satisfies EventSchemas;

export type ApprovalRuleEvent = EventOf<typeof approvalRuleEventSchemas>;

export type ApprovalRuleCommand =
  | { type: 'DefineApprovalRule'; data: ApprovalRuleDefinition & { known_scopes: readonly string[] } }
  | { type: 'DisableApprovalRule'; data: { rule_id: string } };

type State = { status: 'none' } | { status: 'enabled' | 'disabled'; name: string };

// A domain as DNS spells it: labels of letters, digits and hyphens, at least two of them.
const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The rule's fields agree with one another: what `applies_to` and `who` need, and nothing they do not. */
function checkDefinition(rule: ApprovalRuleDefinition, knownScopes: readonly string[]): void {
  const refuse = (error: string, message: string): never => {
    throw new DomainError(error, message);
  };
  if (!isLabel(rule.name, 64))
    refuse('invalid_rule_name', 'a rule name has 1 to 64 characters, not only spaces, and no control character');
  if (rule.applies_to === 'scope' && (rule.scope === null || !knownScopes.includes(rule.scope)))
    refuse('invalid_rule_scope', `a rule that applies to scope requests names one scope: ${knownScopes.join(', ')}`);
  if (rule.applies_to === 'credential' && rule.scope !== null)
    refuse('invalid_rule_scope', 'a rule that applies to credential applications names no scope');
  checkWho(rule);
  if (rule.expires_in_days !== null && rule.applies_to === 'scope')
    refuse('invalid_rule_expiry', 'a scope has no expiry of its own: expires_in_days is for credential rules');
}

/** Who the rule is for: the field `who` names, and no other. */
function checkWho(rule: ApprovalRuleDefinition): void {
  const refuse = (message: string): never => {
    throw new DomainError('invalid_rule_who', message);
  };
  if ((rule.who === 'member_group') !== (rule.member_group_id !== null))
    refuse('member_group_id is given exactly when who is member_group');
  if ((rule.who === 'email_domain') !== (rule.email_domain !== null))
    refuse('email_domain is given exactly when who is email_domain');
  if (rule.email_domain !== null && !DOMAIN.test(rule.email_domain))
    refuse('email_domain is a domain name such as example.com, without @');
}

export const approvalRuleDecider: Decider<ApprovalRuleCommand, ApprovalRuleEvent, State> = {
  initialState: { status: 'none' },
  evolve: (_state, event) =>
    event.type === 'ApprovalRuleDefined'
      ? { status: 'enabled', name: event.data.name }
      : { status: 'disabled', name: event.data.name },
  decide(command, state) {
    if (command.type === 'DefineApprovalRule') {
      if (state.status !== 'none') throw new DomainError('approval_rule_exists', 'a rule with this id exists already');
      const { known_scopes, ...rule } = command.data;
      checkDefinition(rule, known_scopes);
      return [{ type: 'ApprovalRuleDefined', data: rule }];
    }
    if (state.status === 'none')
      throw new DomainError('approval_rule_not_found', `there is no approval rule ${command.data.rule_id}`);
    if (state.status === 'disabled')
      throw new DomainError('approval_rule_disabled', `the approval rule "${state.name}" is disabled already`);
    return [{ type: 'ApprovalRuleDisabled', data: { rule_id: command.data.rule_id, name: state.name } }];
  },
};
