import { ApprovalRuleDefinition, ApprovalRuleEvent } from './decider';
import { Projection } from '../shared/projections/projection';

/** An approval rule as administrators list it and applications are matched against it. */
export interface ApprovalRuleDocument extends Omit<ApprovalRuleDefinition, 'rule_id'> {
  id: string;
  enabled: boolean;
  created_at: string;
  /** Who defined it: the administrator's id. */
  created_by: number | null;
  disabled_at: string | null;
}

export const approvalRulesProjection: Projection<ApprovalRuleDocument, ApprovalRuleEvent> = {
  name: 'approval_rules',
  version: 1,
  collection: { name: 'approval_rules', indexes: ['enabled'] },
  handles: ['ApprovalRuleDefined', 'ApprovalRuleDisabled'],
  documentIds: (event) => [event.data.rule_id],
  evolve(doc, event) {
    if (event.type === 'ApprovalRuleDisabled')
      return doc && { ...doc, enabled: false, disabled_at: event.metadata.time };
    const { rule_id, ...rule } = event.data;
    const by = event.metadata.actor;
    return {
      id: rule_id,
      ...rule,
      enabled: true,
      created_at: event.metadata.time,
      created_by: by.kind === 'admin' && typeof by.id === 'number' ? by.id : null,
      disabled_at: null,
    };
  },
};
