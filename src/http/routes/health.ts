import { Stores } from '../../stores/ports';
import { Endpoint } from '../endpoints';
import { respond } from '../envelope';

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
}

/** Liveness of each store and of the projections, for load balancers and operators. */
export function healthEndpoints(deps: HealthDeps): Endpoint[] {
  const handler: Endpoint['handler'] = async (ctx) => {
    const stores = await deps.stores.health();
    const projections = await deps.projections();
    const keyRing = deps.keyRing();
    const healthy = stores.every((s) => s.ok) && projections.status !== 'failed' && keyRing === 'following';
    const data = { status: healthy ? 'ok' : 'degraded', stores, projections, key_ring: keyRing };
    if (healthy) return respond(ctx, data);
    ctx.status = 503;
    ctx.body = { code: 503, message: 'a store or the projections are unhealthy', data: { error: 'unhealthy', ...data } };
  };
  return [{ method: 'GET', path: '/health', caller: { kind: 'anyone' }, handler }];
}
