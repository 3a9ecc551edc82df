import Router from '@koa/router';
import { Stores } from '../../stores/ports';
import { AppState } from '../context';
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
}

/** Liveness of each store and of the projections, for load balancers and operators. */
export function healthRoutes(router: Router<AppState>, deps: HealthDeps): void {
  router.get('/health', async (ctx) => {
    const stores = await deps.stores.health();
    const projections = await deps.projections();
    const healthy = stores.every((s) => s.ok) && projections.status !== 'failed';
    const data = { status: healthy ? 'ok' : 'degraded', stores, projections };
    if (healthy) return respond(ctx, data);
    ctx.status = 503;
    ctx.body = { code: 503, message: 'a store or the projections are unhealthy', data: { error: 'unhealthy', ...data } };
  });
}
