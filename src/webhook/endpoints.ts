import { z } from 'zod';
import { webhookStream, webhookDecider, WebhookCommand } from './decider';
import { DeliveryDocument, DELIVERIES, deliverySchema, deliveryView } from './deliveries';
import { retried, writePosition } from '../shared/outbox';
import { deliveryParams, webhookParams } from './params';
import { pingEndpoint } from './ping';
import { webhooksProjection, WebhookDocument } from './projection';
import { removeWebhook, rotateWebhookSecret } from './secret-lifecycle';
import { WebhookSecrets } from './secrets';
import { checkUrl, invalidUrl, newSecret, view, webhookSchemas } from './schemas';
import { DocumentStore, EventStore } from '../stores/ports';
import { handle } from '../shared/commands/handle';
import { ReadModels } from '../shared/projections/read-models';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint, Refusal } from '../shared/http/endpoints';
import { newIdFor } from '../shared/http/idempotency';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import type { AdminIdentity } from '../shared/http/session';
import { pageOf, paginate, wholeListQuery } from '../shared/http/pagination';
import { decideThenRead } from '../shared/http/read-your-writes';
import { emptyBody } from '../shared/http/validate';

export interface WebhookDeps {
  events: EventStore;
  readModels: ReadModels;
  documents: DocumentStore;
  webhookAllowPrivate: boolean;
  /** What a webhook can subscribe to, as the slices registered it. */
  webhookEventTypes: readonly string[];
  webhookSecrets: WebhookSecrets;
}

const manage = { kind: 'admin', permission: 'webhook.manage' } as const;

const notFound: Refusal = {
  status: 404,
  reasons: ['webhook_not_found', 'delivery_not_found'],
  when: "there is no such webhook (webhook_not_found) or delivery (delivery_not_found), or it belongs to another role group's administrators",
};

/**
 * Whether this administrator may see and manage the webhook: a super administrator every one, any
 * other only those of its own role group (docs/notifications.md). To the others it does not exist.
 */
function ownedBy(admin: AdminIdentity, hook: WebhookDocument): boolean {
  // A developer's own webhook is theirs alone (developer-endpoints.ts).
  if (hook.owner_member_id != null) return false;
  return admin.is_super || (hook.owner_role_id !== null && hook.owner_role_id === admin.role_id);
}

/** Webhook registrations and their deliveries (docs/notifications.md). */
export function webhookEndpoints(deps: WebhookDeps): Endpoint[] {
  const { webhookSchema, createdWebhookSchema, registerBody } = webhookSchemas(deps.webhookEventTypes);
  const decide = (ctx: AppContext, command: WebhookCommand) => () =>
    handle(
      deps.events,
      webhookStream(command.data.webhook_id),
      webhookDecider,
      command,
      commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id }),
    );
  const existing = async (ctx: AppContext, id: string): Promise<WebhookDocument> => {
    const hook = await deps.readModels.latest(webhooksProjection, id);
    if (!hook || !ownedBy(adminOf(ctx), hook))
      throw new HttpError(404, 'webhook_not_found', `there is no webhook ${id}`);
    return hook;
  };
  const delivery = async (webhookId: string, deliveryId: string): Promise<DeliveryDocument> => {
    const found = await deps.documents.get<DeliveryDocument>(DELIVERIES.name, `${webhookId}:${deliveryId}`);
    if (!found) throw new HttpError(404, 'delivery_not_found', `webhook ${webhookId} has no delivery ${deliveryId}`);
    return found.doc;
  };

  return [
    endpoint({
      method: 'POST',
      path: '/webhooks',
      caller: manage,
      summary: 'Register a webhook: signed POSTs of the events named; the secret is shown this once',
      secretInAnswer: true,
      body: registerBody,
      response: createdWebhookSchema,
      refusals: [invalidUrl],
      handler: async (ctx, { body }) => {
        await checkUrl(body.url, deps.webhookAllowPrivate);
        const webhook_id = newIdFor(ctx, 'webhook');
        const secret = newSecret();
        const sealed_secret = await deps.webhookSecrets.seal(webhook_id, secret);
        const owner_role_id = adminOf(ctx).role_id;
        const command: WebhookCommand = {
          type: 'RegisterWebhook',
          data: { webhook_id, url: body.url, events: body.events, sealed_secret, owner_role_id },
        };
        return decideThenRead(ctx, decide(ctx, command), async ({ position }) => {
          const hook = await deps.readModels.after(webhooksProjection, webhook_id, position);
          return { data: { ...view(hook!), secret }, message: 'registered: keep the secret, it is not shown again' };
        });
      },
    }),
    endpoint({
      method: 'GET',
      path: '/webhooks',
      caller: manage,
      summary:
        "List the webhooks of this administrator's role group (every one for a super administrator), without their secrets",
      query: z.object(wholeListQuery),
      response: pageOf(webhookSchema),
      handler: async (ctx, { query }) => {
        const admin = adminOf(ctx);
        const hooks = (await deps.readModels.allLatest(webhooksProjection, {})).filter((hook) => ownedBy(admin, hook));
        const page = paginate(hooks, (hook) => [Date.parse(hook.created_at), hook.id], query);
        return { data: { list: page.list.map(view), next: page.next } };
      },
    }),
    endpoint({
      method: 'PUT',
      path: '/webhooks/:id',
      caller: manage,
      summary: "Change a webhook's URL and the events it hears of; its secret and its deliveries stay",
      params: webhookParams,
      body: registerBody,
      response: webhookSchema,
      refusals: [notFound, invalidUrl],
      handler: async (ctx, { params: { id }, body }) => {
        await existing(ctx, id);
        await checkUrl(body.url, deps.webhookAllowPrivate);
        return decideThenRead(
          ctx,
          decide(ctx, { type: 'ChangeWebhook', data: { webhook_id: id, url: body.url, events: body.events } }),
          async ({ position }) => {
            const hook = await deps.readModels.after(webhooksProjection, id, position);
            return { data: view(hook!), message: 'changed: the events from now on are sent to this URL' };
          },
        );
      },
    }),
    pingEndpoint(deps, existing, [notFound]),
    endpoint({
      method: 'DELETE',
      path: '/webhooks/:id',
      caller: manage,
      summary:
        'Remove a webhook: nothing more is sent to it, and its secret can no longer be recovered (its data key is destroyed)',
      params: webhookParams,
      response: webhookSchema,
      refusals: [notFound],
      handler: async (ctx, { params: { id } }) => {
        return removeWebhook(deps, decide, ctx, await existing(ctx, id));
      },
    }),
    endpoint({
      method: 'POST',
      path: '/webhooks/:id/rotate-secret',
      caller: manage,
      summary: 'Give a webhook a new secret, which signs every delivery from now on; the new secret is shown this once',
      secretInAnswer: true,
      params: webhookParams,
      body: emptyBody,
      response: createdWebhookSchema,
      refusals: [notFound],
      handler: async (ctx, { params: { id } }) => {
        await existing(ctx, id);
        return rotateWebhookSecret(deps, decide, ctx, id);
      },
    }),
    endpoint({
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      caller: manage,
      summary: "A webhook's deliveries, newest first",
      params: webhookParams,
      query: z.object(wholeListQuery),
      response: pageOf(deliverySchema),
      refusals: [notFound],
      handler: async (ctx, { params: { id }, query }) => {
        await existing(ctx, id);
        const found = await deps.documents.find<DeliveryDocument>(DELIVERIES.name, { webhook_id: id });
        const page = paginate(
          found.map((d) => d.doc),
          (delivery) => [0, `${delivery.event_position}~${delivery.id}`],
          query,
          { newestFirst: true },
        );
        return { data: { list: page.list.map(deliveryView), next: page.next } };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/webhooks/:id/deliveries/:delivery_id/retry',
      caller: manage,
      summary: 'Send a delivery again now',
      params: deliveryParams,
      body: emptyBody,
      response: deliverySchema,
      refusals: [notFound],
      handler: async (ctx, { params: { id, delivery_id } }) => {
        await existing(ctx, id);
        const next = retried(await delivery(id, delivery_id), Date.now());
        await deps.documents.write([
          { collection: DELIVERIES.name, id: `${id}:${delivery_id}`, doc: { ...next }, position: writePosition(next) },
        ]);
        return { data: deliveryView(next), message: 'queued: it is sent within a second' };
      },
    }),
  ];
}
