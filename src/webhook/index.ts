import { Slice } from '../shared/slice';
import { webhookEndpoints, WebhookDeps } from './endpoints';
import { webhooksProjection } from './projection';

/** Webhooks: registrations (events), their deliveries (the notifier's documents). */
export const webhookSlice: Slice<WebhookDeps> = {
  projections: [webhooksProjection],
  endpoints: (deps) => webhookEndpoints(deps),
};
