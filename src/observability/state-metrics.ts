import { MAIL_OUTBOX } from '../mail/outbox';
import { deadLetterHealth } from '../shared/projections/dead-letters';
import { projectorStatus } from '../shared/projections/heartbeat';
import { EventStore, Position, START, Stores } from '../stores/ports';
import { Metrics } from './metrics';

/** What the gauges read when Prometheus scrapes: nothing is counted on the way of a request or an event. */
export interface ObservedState {
  stores: Pick<Stores, 'events' | 'documents' | 'health'>;
  /** Where each projection this process runs stands; absent in an API whose projections run elsewhere. */
  projections?: { names: string[]; checkpoint(name: string): Position | undefined };
  /** The API's in-memory key ring. */
  keyRing?: { stalenessMs(): number; maxStalenessMs: number };
  passwordChecksInFlight?: () => number;
  /** Whether this process holds the projector lease; absent in an API, which never holds it. */
  leaseHeld?: () => boolean;
}

/**
 * A position as a number, for graphs: positions are opaque strings ordered as text, a SQLite
 * sequence number or KurrentDB's `commit:prepare`, of which the commit position is taken.
 */
export function positionNumber(position: Position): number {
  return position === START ? 0 : Number(position.split(':')[0]);
}

/**
 * How far behind a checkpoint is, in seconds: the age of the oldest event it has not applied,
 * 0 when it is at the head. It grows while a projection is stuck, however quiet the log is.
 */
async function lagSeconds(events: EventStore, checkpoint: Position, head: Position, now: number): Promise<number> {
  if (checkpoint >= head) return 0;
  const [next] = await events.readAll(checkpoint, 1);
  return next ? Math.max(0, (now - Date.parse(next.metadata.time)) / 1000) : 0;
}

export function registerStateGauges(metrics: Metrics, state: ObservedState): void {
  const { stores } = state;
  metrics.gauge(
    'platform_store_up',
    'Whether each store answers its health check (1) or not (0)',
    ['store'],
    async (g) => {
      g.reset();
      for (const { name, ok } of await stores.health()) g.set({ store: name }, ok ? 1 : 0);
    },
  );
  metrics.gauge(
    'platform_projection_dead_letters',
    'Unresolved dead letters: events a projection could not apply, halting it',
    [],
    async (g) => {
      g.set((await deadLetterHealth(stores.documents)).count);
    },
  );
  metrics.gauge(
    'platform_projector_heartbeat_age_seconds',
    "Seconds since the projector's last heartbeat (written every 5 s); +Inf when none was ever written",
    [],
    async (g) => {
      const { age_ms } = await projectorStatus(stores.documents);
      g.set(age_ms === null ? Infinity : age_ms / 1000);
    },
  );
  metrics.gauge(
    'platform_mails_dead',
    'Mails of the outbox that are dead: refused for good or out of attempts, until an administrator retries them',
    [],
    async (g) => {
      g.set((await stores.documents.find(MAIL_OUTBOX.name, { status: 'dead' })).length);
    },
  );
  const { projections, keyRing, passwordChecksInFlight, leaseHeld } = state;
  if (leaseHeld)
    metrics.gauge(
      'platform_projector_lease_held',
      'Whether this projector holds the projector lease and runs (1), or waits to take over (0)',
      [],
      (g) => g.set(leaseHeld() ? 1 : 0),
    );
  if (projections) {
    metrics.gauge(
      'platform_projection_position',
      'The global log position each projection has applied (the commit position on KurrentDB)',
      ['projection'],
      (g) => {
        for (const name of projections.names)
          g.set({ projection: name }, positionNumber(projections.checkpoint(name) ?? START));
      },
    );
    metrics.gauge(
      'platform_projection_lag_seconds',
      'Age of the oldest event each projection has not applied yet; 0 at the head of the log',
      ['projection'],
      async (g) => {
        const head = await stores.events.headPosition();
        const now = Date.now();
        // Projections mostly stand at the same checkpoint: one read for each distinct one.
        const lags = new Map<Position, Promise<number>>();
        for (const name of projections.names) {
          const checkpoint = projections.checkpoint(name) ?? START;
          if (!lags.has(checkpoint)) lags.set(checkpoint, lagSeconds(stores.events, checkpoint, head, now));
          g.set({ projection: name }, await lags.get(checkpoint)!);
        }
      },
    );
  }
  if (keyRing) {
    metrics.gauge(
      'platform_key_ring_staleness_seconds',
      'How long the key ring has been cut off from the event store; 0 while it follows the log',
      [],
      (g) => {
        g.set(keyRing.stalenessMs() / 1000);
      },
    );
    metrics.gauge(
      'platform_key_ring_max_staleness_seconds',
      'KEY_RING_MAX_STALENESS_MS: past this staleness, open-API calls are refused (503)',
      [],
      (g) => {
        g.set(keyRing.maxStalenessMs / 1000);
      },
    );
  }
  if (passwordChecksInFlight) {
    metrics.gauge(
      'platform_password_checks_in_flight',
      'Password hashes under way or queued (at most PASSWORD_CHECKS_IN_FLIGHT)',
      [],
      (g) => {
        g.set(passwordChecksInFlight());
      },
    );
  }
}
