import { DeveloperWebhookCommand, developerWebhooksDecider, developerWebhooksStream } from './developer-decider';
import { DELIVERIES, DeliveryDocument, deliverySchema, deliveryView } from './deliveries';
import type { WebhookDeps } from './endpoints';
import { webhookParams } from './params';
import { pingEndpoint } from './ping';
import { WebhookDocument, webhooksProjection } from './projection';
import { removeWebhook, rotateWebhookSecret } from './secret-lifecycle';
import { checkUrl, invalidUrl, newSecret, view, webhookSchemas } from './schemas';
import { handle } from '../shared/commands/handle';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { memberOf } from '../shared/http/guards';
import { newIdFor } from '../shared/http/idempotency';
import { decideThenRead } from '../shared/http/read-your-writes';
import { listOf } from '../shared/http/schemas';
import { emptyBody } from '../shared/http/validate';

/** What a developer's webhook may hear of: their own credential's and scopes' events. */
const DEVELOPER_EVENTS = new Set([
  'credential.approved',
  'credential.rejected',
  'credential.revoked',
  'credential.expiring',
  'credential.expired',
  'credential.rotated',
  'credential.leaked',
]);
export const developerEventTypes = (registered: readonly string[]): string[] =>
  registered.filter((type) => DEVELOPER_EVENTS.has(type) || type.startsWith('scope.'));

const member = { kind: 'member' } as const;

const notFound = {
  status: 404,
  reasons: ['webhook_not_found'],
  when: 'webhook_not_found: the member holds no webhook with this id',
} as const;

/**
 * A developer's own webhooks (docs/notifications.md): signed, guarded and delivered as the
 * administrators' are (the same notifier, signature, address checks and retries), but each hears
 * only of events about the member who registered it, and a member holds at most five.
 */
export function developerWebhookEndpoints(deps: WebhookDeps): Endpoint[] {
  const types = developerEventTypes(deps.webhookEventTypes);
  const { webhookSchema, createdWebhookSchema, registerBody } = webhookSchemas(types, 'Developer');
  const decide = (ctx: AppContext, command: DeveloperWebhookCommand) => () => {
    const { id } = memberOf(ctx);
    return handle(
      deps.events,
      developerWebhooksStream(id),
      developerWebhooksDecider,
      command,
      commandContext(ctx, { kind: 'member', id }),
    );
  };
  const existing = async (ctx: AppContext, id: string): Promise<WebhookDocument> => {
    const hook = await deps.readModels.latest(webhooksProjection, id);
    if (!hook || hook.owner_member_id !== memberOf(ctx).id)
      throw new HttpError(404, 'webhook_not_found', `you hold no webhook ${id}: GET /developer/webhooks lists yours`);
    return hook;
  };
  const ofId = { params: webhookParams, refusals: [notFound] };

  return [
    endpoint({
      method: 'POST',
      path: '/developer/webhooks',
      caller: member,
      summary:
        "Register a webhook for the member's own credential's events (at most 5 a member); the secret is shown this once",
      secretInAnswer: true,
      body: registerBody,
      response: createdWebhookSchema,
      refusals: [
        invalidUrl,
        {
          status: 422,
          reasons: ['webhook_limit_reached'],
          when: 'webhook_limit_reached: the member holds 5 webhooks already',
        },
      ],
      handler: async (ctx, { body }) => {
        await checkUrl(body.url, deps.webhookAllowPrivate);
        const webhook_id = newIdFor(ctx, 'webhook');
        const secret = newSecret();
        const sealed_secret = await deps.webhookSecrets.seal(webhook_id, secret);
        const data = {
          webhook_id,
          url: body.url,
          events: body.events,
          sealed_secret,
          owner_member_id: memberOf(ctx).id,
        };
        const register = async () => {
          try {
            return await decide(ctx, { type: 'RegisterWebhook', data })();
          } catch (err) {
            // Refused: the data key made for it seals nothing.
            await deps.webhookSecrets.destroy(webhook_id);
            throw err;
          }
        };
        return decideThenRead(ctx, register, async ({ position }) => {
          const hook = await deps.readModels.after(webhooksProjection, webhook_id, position);
          return { data: { ...view(hook!), secret }, message: 'registered: keep the secret, it is not shown again' };
        });
      },
    }),
    endpoint({
      method: 'GET',
      path: '/developer/webhooks',
      caller: member,
      summary: "The member's own webhooks, oldest first, without their secrets",
      response: listOf(webhookSchema),
      handler: async (ctx) => {
        const hooks = await deps.readModels.allLatest(webhooksProjection, {});
        const own = hooks.filter((hook) => hook.owner_member_id === memberOf(ctx).id);
        return { data: { list: own.sort((a, b) => a.created_at.localeCompare(b.created_at)).map(view) } };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/developer/webhooks/:id',
      caller: member,
      summary: "One of the member's webhooks, without its secret",
      ...ofId,
      response: webhookSchema,
      handler: async (ctx, { params: { id } }) => ({ data: view(await existing(ctx, id)) }),
    }),
    endpoint({
      method: 'DELETE',
      path: '/developer/webhooks/:id',
      caller: member,
      summary: 'Remove one of the member’s webhooks: nothing more is sent to it, and its secret is destroyed',
      ...ofId,
      response: webhookSchema,
      handler: async (ctx, { params: { id } }) => {
        return removeWebhook(deps, decide, ctx, await existing(ctx, id));
      },
    }),
    endpoint({
      method: 'POST',
      path: '/developer/webhooks/:id/rotate-secret',
      caller: member,
      summary:
        "Give one of the member's webhooks a new secret, which signs every delivery from now on; shown this once",
      secretInAnswer: true,
      ...ofId,
      body: emptyBody,
      response: createdWebhookSchema,
      handler: async (ctx, { params: { id } }) => {
        await existing(ctx, id);
        return rotateWebhookSecret(deps, decide, ctx, id);
      },
    }),
    endpoint({
      method: 'GET',
      path: '/developer/webhooks/:id/deliveries',
      caller: member,
      summary: "One of the member's webhooks' deliveries, newest first",
      ...ofId,
      response: listOf(deliverySchema),
      handler: async (ctx, { params: { id } }) => {
        await existing(ctx, id);
        const found = await deps.documents.find<DeliveryDocument>(DELIVERIES.name, { webhook_id: id });
        const list = found.map((d) => d.doc).sort((a, b) => b.event_position.localeCompare(a.event_position));
        return { data: { list: list.map(deliveryView) } };
      },
    }),
    pingEndpoint(deps, existing, [notFound], { path: '/developer/webhooks/:id/test', caller: member }),
  ];
}
