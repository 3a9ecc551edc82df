import type { Logger } from 'pino';
import type { Settings } from '../config';
import type { Stores } from '../stores/ports';
import { Registry, Slice } from '../shared/slice';
import { webhookEvents } from './event-definitions';
import { developerWebhookEndpoints } from './developer-endpoints';
import { webhookEndpoints, WebhookDeps } from './endpoints';
import { NotifierOptions, WebhookNotifier } from './notifier';
import { webhooksProjection } from './projection';
import { developerWebhooksStream } from './developer-decider';
import { webhookSecretsOf } from './secrets';

interface NotifierDeps {
  settings: Pick<Settings, 'WEBHOOK_RETRY_SCHEDULE' | 'WEBHOOK_ALLOW_PRIVATE' | 'WEBHOOK_SECRET_KEY'>;
  stores: Stores;
  log: Logger;
  registry: Pick<Registry, 'webhookTypeOf'>;
  /** Told of each delivery attempt's outcome, for the operators' metrics. */
  webhookAttempted?: NotifierOptions['attempted'];
}

/** Webhooks: registrations (events), their deliveries (the notifier's documents). */
export const webhookSlice: Slice<WebhookDeps, NotifierDeps> = {
  name: 'webhook',
  events: webhookEvents,
  permissions: { 'webhook.manage': "Register and manage the role group's webhooks" },
  // Webhooks belong to the role group of whoever registered them.
  roleGroupScoped: ['webhook.manage'],
  projections: [webhooksProjection],
  // A developer's own webhooks are told in their history.
  memberStreams: ({ id }) => [developerWebhooksStream(id)],
  endpoints: (deps) => [...webhookEndpoints(deps), ...developerWebhookEndpoints(deps)],
  notifiers: ({ settings, stores, log, registry, webhookAttempted }) => [
    new WebhookNotifier(stores.events, stores.documents, log.child({ component: 'webhooks' }), {
      schedule: settings.WEBHOOK_RETRY_SCHEDULE,
      allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE,
      typeOf: (type) => registry.webhookTypeOf(type),
      attempted: webhookAttempted,
      secrets: webhookSecretsOf(settings, stores),
    }),
  ],
};
