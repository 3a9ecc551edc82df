import { handle } from '../../../../src/shared/commands/handle';
import { WebhookCommand, webhookDecider, webhookStream } from '../../../../src/webhook/decider';
import { ApprovalRuleCommand, approvalRuleDecider, approvalRuleStream } from '../../../../src/approval-rule/decider';
import { SCOPE_NAMES } from '../../../../src/credential/scopes';
import { Draw } from './draw';

/** Registers a webhook, or rotates its secret, or removes one (sometimes one already removed: refused). */
export async function webhook(d: Draw, webhooks: string[]): Promise<void> {
  const { stores, pick, chance, ctx } = d;
  const existing = webhooks.length > 0 && chance(0.6);
  const webhook_id = existing ? pick(webhooks) : `00000000-0000-4000-8000-${String(webhooks.length).padStart(12, '0')}`;
  const sealed_secret = `v1.${webhooks.length}.tag.sealed`;
  const command: WebhookCommand = !existing
    ? {
        type: 'RegisterWebhook',
        data: {
          webhook_id,
          url: 'https://example.com/hook',
          events: ['credential.approved'],
          sealed_secret,
          owner_role_id: chance(0.5) ? 1 : null,
        },
      }
    : chance(0.5)
      ? { type: 'RotateWebhookSecret', data: { webhook_id, sealed_secret } }
      : { type: 'RemoveWebhook', data: { webhook_id } };
  if (!existing) webhooks.push(webhook_id);
  await handle(stores.events, webhookStream(webhook_id), webhookDecider, command, ctx());
}

/** Defines an approval rule (sometimes one whose fields disagree: refused), or disables one (sometimes twice). */
export async function approvalRule(d: Draw, rules: string[]): Promise<void> {
  const { stores, pick, chance, ctx, anyScope } = d;
  const existing = rules.length > 0 && chance(0.4);
  const rule_id = existing ? pick(rules) : `00000000-0000-4000-9000-${String(rules.length).padStart(12, '0')}`;
  const scoped = chance(0.5);
  const command: ApprovalRuleCommand = existing
    ? { type: 'DisableApprovalRule', data: { rule_id } }
    : {
        type: 'DefineApprovalRule',
        data: {
          rule_id,
          name: chance(0.1) ? '  ' : `Rule ${rules.length}`,
          applies_to: scoped ? 'scope' : 'credential',
          scope: scoped ? anyScope() : null,
          who: chance(0.5) ? 'everyone' : 'email_domain',
          member_group_id: null,
          email_domain: chance(0.5) ? 'example.com' : null,
          expires_in_days: !scoped && chance(0.5) ? 30 : null,
          known_scopes: SCOPE_NAMES,
        },
      };
  if (!existing) rules.push(rule_id);
  await handle(stores.events, approvalRuleStream(rule_id), approvalRuleDecider, command, ctx());
}
