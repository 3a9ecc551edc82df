import { z } from 'zod';
import {
  APPLIES_TO,
  approvalRuleDecider,
  ApprovalRuleCommand,
  approvalRuleStream,
  MAX_RULE_DAYS,
  ruleDefinitionFields,
  WHO,
} from './decider';
import { ApprovalRuleDocument, approvalRulesProjection } from './projection';
import { handle } from '../shared/commands/handle';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { newIdFor } from '../shared/http/idempotency';
import { pageOf, pageQuery, paginate } from '../shared/http/pagination';
import { decideThenRead } from '../shared/http/read-your-writes';
import { concurrentChange } from '../shared/http/schemas';
import { emptyBody } from '../shared/http/validate';
import { ReadModels, expectWritten } from '../shared/projections/read-models';
import { EventStore } from '../stores/ports';
import { SCOPE_NAMES } from '../credential';

export interface ApprovalRuleDeps {
  events: EventStore;
  readModels: ReadModels;
  /** MAX_KEY_LIFETIME_DAYS: a rule's keys live no longer than an administrator's approval may say. */
  maxKeyLifetimeDays: number;
  /** Whether a member group exists, asked of the access slice. */
  memberGroupExists(id: number): Promise<boolean>;
}

const ruleSchema = z
  .object({
    id: z.string(),
    ...ruleDefinitionFields,
    expires_in_days: z
      .int()
      .nullable()
      .meta({ description: 'null: as an approval without expiry (KEY_LIFETIME_DAYS)' }),
    enabled: z.boolean(),
    created_at: z.iso.datetime(),
    created_by: z.int().nullable(),
    disabled_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApprovalRule' });

const ruleParams = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'id is not an approval rule id'),
});

const defineBody = (maxDays: number) =>
  z.strictObject({
    name: z.string({ error: 'name is required: what the rule is for, as the audit trail will name it' }),
    applies_to: z.enum(APPLIES_TO, { error: 'applies_to must be credential or scope' }),
    scope: z
      .string({ error: 'scope must be a scope name' })
      .optional()
      .meta({ description: 'When applies_to is scope' }),
    who: z.enum(WHO, { error: 'who must be everyone, member_group or email_domain' }),
    member_group_id: z.int('member_group_id must be a whole number').min(1).optional(),
    email_domain: z
      .string({ error: 'email_domain must be a domain name' })
      .trim()
      .toLowerCase()
      .max(253, 'email_domain is at most 253 characters')
      .optional(),
    expires_in_days: z
      .int('expires_in_days must be a whole number of days')
      .min(1, 'expires_in_days must be at least 1')
      .max(
        Math.min(maxDays, MAX_RULE_DAYS),
        `expires_in_days must be at most ${Math.min(maxDays, MAX_RULE_DAYS)} (MAX_KEY_LIFETIME_DAYS)`,
      )
      .optional(),
  });

const review = { kind: 'admin', permission: 'credential.review' } as const;
const view = (doc: ApprovalRuleDocument) => doc;

/** The administrators' approval rules (docs/credentials.md, "Approval rules"). */
export function approvalRuleEndpoints(deps: ApprovalRuleDeps): Endpoint[] {
  const decide = (ctx: AppContext, ruleId: string, command: ApprovalRuleCommand) => () =>
    handle(
      deps.events,
      approvalRuleStream(ruleId),
      approvalRuleDecider,
      command,
      commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id }),
    );
  const after =
    (id: string) =>
    async ({ position }: { position: string | null }) =>
      expectWritten(await deps.readModels.after(approvalRulesProjection, id, position));

  return [
    endpoint({
      method: 'POST',
      path: '/approval-rules',
      caller: review,
      summary:
        'Define an approval rule: applications (or requests of one scope) of the members it names are approved at once',
      body: defineBody(deps.maxKeyLifetimeDays),
      response: ruleSchema,
      refusals: [
        {
          status: 422,
          reasons: ['invalid_rule_name', 'invalid_rule_scope', 'invalid_rule_who', 'invalid_rule_expiry'],
          when: 'the fields do not agree (invalid_rule_name, invalid_rule_scope, invalid_rule_who, invalid_rule_expiry)',
        },
        {
          status: 404,
          reasons: ['member_group_not_found'],
          when: 'member_group_id names no member group (member_group_not_found)',
        },
      ],
      handler: async (ctx, { body }) => {
        if (body.member_group_id !== undefined && !(await deps.memberGroupExists(body.member_group_id)))
          throw new HttpError(404, 'member_group_not_found', `there is no member group ${body.member_group_id}`);
        const rule_id = newIdFor(ctx, 'approval-rule');
        const command: ApprovalRuleCommand = {
          type: 'DefineApprovalRule',
          data: {
            rule_id,
            name: body.name.normalize('NFKC').trim(),
            applies_to: body.applies_to,
            scope: body.scope ?? null,
            who: body.who,
            member_group_id: body.member_group_id ?? null,
            email_domain: body.email_domain ?? null,
            expires_in_days: body.expires_in_days ?? null,
            known_scopes: SCOPE_NAMES,
          },
        };
        const rule = await decideThenRead(ctx, decide(ctx, rule_id, command), after(rule_id));
        return { data: view(rule), message: `rule "${rule.name}" defined: it approves from now on` };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/approval-rules',
      caller: review,
      summary: 'List the approval rules, enabled and disabled, a page at a time, oldest first',
      query: z.object({ ...pageQuery }),
      response: pageOf(ruleSchema),
      handler: async (_ctx, { query }) => {
        const rules = await deps.readModels.allLatest(approvalRulesProjection, {});
        const page = paginate(rules, (rule) => [Date.parse(rule.created_at), rule.id], query);
        return { data: { list: page.list.map(view), next: page.next } };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/approval-rules/:id/disable',
      caller: review,
      summary: 'Disable an approval rule: it approves nothing more (what it approved stays approved)',
      params: ruleParams,
      body: emptyBody,
      response: ruleSchema,
      refusals: [
        { status: 404, reasons: ['approval_rule_not_found'], when: 'there is no such rule (approval_rule_not_found)' },
        {
          status: 422,
          reasons: ['approval_rule_disabled'],
          when: 'the rule is disabled already (approval_rule_disabled)',
        },
        concurrentChange,
      ],
      handler: async (ctx, { params: { id } }) => {
        const disable = decide(ctx, id, { type: 'DisableApprovalRule', data: { rule_id: id } });
        const rule = await decideThenRead(ctx, notFoundAs404(disable), after(id));
        return { data: view(rule), message: `rule "${rule.name}" disabled: it approves nothing more` };
      },
    }),
  ];
}

/** A rule that does not exist is a wrong id in the path: 404, not a 422 about its state. */
function notFoundAs404<T>(run: () => Promise<T>) {
  return async () => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof Error && 'error' in err && err.error === 'approval_rule_not_found')
        throw new HttpError(404, 'approval_rule_not_found', err.message);
      throw err;
    }
  };
}
