import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const webhookParams = z.object({ id: z.string().regex(UUID, 'id is not a webhook id') });
// A delivery's id is its event's id, a UUID, or the event's position for events stored without one.
export const deliveryParams = webhookParams.extend({
  delivery_id: z.string().regex(/^[0-9a-zA-Z_-]{1,100}$/, 'delivery_id is not a delivery id'),
});
