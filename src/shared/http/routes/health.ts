import { z } from 'zod';
import { DeadLetterHealth } from '../../projections/dead-letters';
import type { ReplicaStatus } from '../../projections/replica';
import { PROJECTOR_LEASE, StoreHealth, Stores } from '../../../stores/ports';
import { endpoint, Endpoint } from '../endpoints';
import { HttpError } from '../envelope';

export interface ProjectionsHealth {
  /**
   * Inline: running, stopped, interrupted (a store is unreachable; retried) or failed. With a
   * projector process: its last heartbeat's status (stopped after a clean stop), stale when it
   * stopped beating, absent when it never did. Healthy only while running.
   */
  status: string;
  position: string;
  error: string | null;
}

export interface HealthDeps {
  stores: Stores;
  projections(): Promise<ProjectionsHealth>;
  /** Whether the in-memory key ring follows the log; the open API refuses calls while it does not. */
  keyRing(): ReplicaStatus;
  /** Events a projection could not apply and no later run has applied yet. */
  deadLetters(): Promise<DeadLetterHealth>;
  /** How long ago the projector (or the API projecting inline) last beat; null when it never did. */
  heartbeatAgeMs(): Promise<number | null>;
  /** The read models older than the code, which `platform upgrade` rebuilds. */
  outdatedReadModels(): Promise<string[]>;
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
    projections: z.object({
      status: z.string(),
      position: z.string(),
      error: z.string().nullable(),
      lag_ms: z.int().min(0).nullable().meta({
        description:
          'How long the oldest event the read models have not applied yet has waited; 0 when they hold every event; null when the log cannot be read',
      }),
      heartbeat_age_ms: z.int().min(0).nullable().meta({
        description:
          'How long ago the projector last wrote its heartbeat (every 5 s); null when none was ever written or the store cannot be read. Past 15 s it is stale; past 30 s it exits for its supervisor to restart it',
      }),
      lease: z
        .object({
          holder: z.string().meta({ description: 'The projector holding it: host, process id and a random part' }),
          token: z.int().min(1).meta({ description: 'Its fencing token: greater with every new holder' }),
          expires_at: z.iso.datetime().meta({ description: 'When its term ends unless renewed' }),
        })
        .nullable()
        .meta({
          description:
            'The projector lease (several `platform project` processes: one holds it, the others wait to take over); null when none was ever taken (the projections run inline in an API) or the store cannot be read',
        }),
    }),
    key_ring: z.enum(['following', 'resubscribing', 'halted']),
    dead_letters: z.object({ count: z.int().min(0), latest: deadLetterSchema.nullable() }),
  })
  .meta({ id: 'Health' });

// Projection statuses under which read-your-writes cannot be kept: unhealthy, reported by /health.
const NOT_SERVING = new Set(['failed', 'interrupted', 'stopped', 'stale', 'absent']);

/**
 * This replica can serve: its own stores answer and its key ring is within the staleness bound.
 * The projections are left out on purpose: they are one process's (the projector, or the inline
 * API), and a blip of theirs must not take every replica out of the load balancer at once. Reads
 * that need the read models answer 503 read_model_lagging meanwhile, and /health and the
 * projector's own probe report them (docs/production.md).
 */
function ready(stores: StoreHealth[], keyRing: ReplicaStatus): boolean {
  return stores.every((s) => s.ok) && keyRing === 'following';
}

/** Healthy: ready, and the projections are followed. */
function serving(stores: StoreHealth[], projections: ProjectionsHealth, keyRing: ReplicaStatus): boolean {
  return ready(stores, keyRing) && !NOT_SERVING.has(projections.status);
}

/** How long the first event after `position` has waited to be applied: 0 when there is none. */
async function lagOf(stores: Stores, position: string): Promise<number> {
  const [waiting] = await stores.events.readAll(position, 1);
  return waiting ? Math.max(0, Date.now() - Date.parse(waiting.metadata.time)) : 0;
}

/** Who holds the projector lease, as /health reports it. */
async function leaseOf(stores: Stores) {
  const term = await stores.leases.current(PROJECTOR_LEASE).catch(() => null);
  return term && { holder: term.holder, token: term.token, expires_at: new Date(term.expiresAt).toISOString() };
}

const livenessSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });
const readinessSchema = z.object({ status: z.literal('ready') }).meta({ id: 'Readiness' });

/**
 * For orchestrators, without credentials: /livez (the process answers) and /readyz (status only:
 * no path, store error or stream name to anyone who asks). The detailed report is administrators'.
 */
export function healthEndpoints(deps: HealthDeps): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/livez',
      caller: { kind: 'anyone' },
      summary: 'The process answers; nothing else is checked',
      response: livenessSchema,
      handler: () => ({ data: { status: 'ok' as const } }),
    }),
    endpoint({
      method: 'GET',
      path: '/readyz',
      caller: { kind: 'anyone' },
      summary:
        "Ready to serve: this replica's stores answer and its key ring follows the log within the staleness bound; status only (the projections are reported by /health)",
      response: readinessSchema,
      refusals: [
        {
          status: 503,
          reasons: ['not_ready'],
          when: 'not_ready: a store does not answer or the key ring is past its staleness bound; no detail (administrators see GET /health)',
        },
        {
          status: 503,
          reasons: ['upgrade_required'],
          when: 'the read models are older than the code (upgrade_required): run `platform upgrade`',
        },
      ],
      handler: async () => {
        if ((await deps.outdatedReadModels().catch(() => [])).length > 0) {
          throw new HttpError(
            503,
            'upgrade_required',
            'an upgrade is required before administrators can be served: run `platform upgrade`',
          );
        }
        // A check that throws is as unready as one that says so; what it threw stays in the detailed report.
        const answers = await deps.stores.health().then(
          (stores) => ready(stores, deps.keyRing()),
          () => false,
        );
        if (answers) return { data: { status: 'ready' as const } };
        throw new HttpError(503, 'not_ready', 'not ready to serve yet: retry in a moment', undefined, {
          'Retry-After': '1',
        });
      },
    }),
    endpoint({
      method: 'GET',
      path: '/health',
      caller: { kind: 'admin' },
      summary:
        'Status of each store, of the projections, of the key ring and the dead letters; 503 when any is unhealthy',
      response: healthSchema,
      refusals: [
        {
          status: 503,
          reasons: ['unhealthy'],
          when: 'unhealthy: a store, the projections or the key ring is unhealthy, or a dead letter is unresolved; data holds the same report',
        },
      ],
      handler: async (ctx) => {
        const stores = await deps.stores.health();
        const reported = await deps.projections();
        // The log unreadable is told by `stores`; the lag is then unknown, not an error of its own.
        const projections = {
          ...reported,
          lag_ms: await lagOf(deps.stores, reported.position).catch(() => null),
          heartbeat_age_ms: await deps.heartbeatAgeMs().catch(() => null),
          lease: await leaseOf(deps.stores),
        };
        const keyRing = deps.keyRing();
        const deadLetters = await deps.deadLetters();
        const healthy = serving(stores, projections, keyRing) && deadLetters.count === 0;
        const status = healthy ? ('ok' as const) : ('degraded' as const);
        const data = { status, stores, projections, key_ring: keyRing, dead_letters: deadLetters };
        if (healthy) return { data };
        ctx.status = 503;
        ctx.body = {
          code: 503,
          message: 'a store or the projections are unhealthy',
          data: { error: 'unhealthy', ...data },
        };
      },
    }),
  ];
}
