import { z } from 'zod';
import { DeadLetterHealth } from '../../projections/dead-letters';
import { Stores } from '../../../stores/ports';
import { endpoint, Endpoint } from '../endpoints';

export interface ProjectionsHealth {
  /** running, stopped or failed when inline; external when a projector process runs them. */
  status: string;
  position: string;
  error: string | null;
}

export interface HealthDeps {
  stores: Stores;
  projections(): Promise<ProjectionsHealth>;
  /** Whether the in-memory key ring follows the log; the open API refuses calls while it does not. */
  keyRing(): 'following' | 'resubscribing';
  /** Events a projection could not apply and no later run has applied yet. */
  deadLetters(): Promise<DeadLetterHealth>;
}

const deadLetterSchema = z.object({
  projection: z.string(),
  position: z.string(),
  event_type: z.string(),
  stream: z.string(),
  revision: z.int(),
  error: z.string(),
  time: z.string(),
  resolved_at: z.string().nullable(),
});

const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    stores: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
    projections: z.object({ status: z.string(), position: z.string(), error: z.string().nullable() }),
    key_ring: z.enum(['following', 'resubscribing']),
    dead_letters: z.object({ count: z.int().min(0), latest: deadLetterSchema.nullable() }),
  })
  .meta({ id: 'Health' });

/** Liveness of each store and of the projections, for load balancers and operators. */
export function healthEndpoints(deps: HealthDeps): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/health',
      caller: { kind: 'anyone' },
      summary: 'Status of each store, of the projections and of the key ring; 503 when any is unhealthy',
      response: healthSchema,
      refusals: [{ status: 503, when: 'a store, the projections or the key ring is unhealthy, or a dead letter is unresolved; data holds the same report' }],
      handler: async (ctx) => {
        const stores = await deps.stores.health();
        const projections = await deps.projections();
        const keyRing = deps.keyRing();
        const deadLetters = await deps.deadLetters();
        const healthy = stores.every((s) => s.ok) && projections.status !== 'failed' && keyRing === 'following' && deadLetters.count === 0;
        const status = healthy ? ('ok' as const) : ('degraded' as const);
        const data = { status, stores, projections, key_ring: keyRing, dead_letters: deadLetters };
        if (healthy) return { data };
        ctx.status = 503;
        ctx.body = { code: 503, message: 'a store or the projections are unhealthy', data: { error: 'unhealthy', ...data } };
      },
    }),
  ];
}
