import type { Logger } from 'pino';
import { stamp } from './stamp';
import { CollectionSpec, DocumentStore, Position } from '../../stores/ports';
import { every } from './turns';

/** Where the projector (or the API running the projections inline) says it is alive, for API processes started with PROJECTIONS=off. */
export const HEARTBEATS: CollectionSpec = { name: 'projector_heartbeats', indexes: [] };
const PROJECTOR = 'projector';
/** How often the projector writes its heartbeat. */
export const HEARTBEAT_MS = 5000;
// Three beats missed: a projector that is dead, hung, or cut off from the document store.
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS;

export interface Heartbeat {
  /** The runner's status when it wrote: running, interrupted, failed. */
  status: string;
  /** The last position every projection has stored. */
  position: Position;
  at: string;
}

/** What a running projector reports about itself. */
export interface HeartbeatSource {
  readonly status: string;
  position(): Position;
}

export interface BeatHooks {
  /** Told of each heartbeat stored: the projector's container health check watches it. */
  stored?: (heartbeat: Heartbeat) => void;
  /** Told of each beat that ended, stored or refused: the loop still turns (watchdog.ts). */
  settled?: () => void;
}

/**
 * Writes the projector's heartbeat every HEARTBEAT_MS; a write that fails is simply missed (the
 * readers see the heartbeat age). Answers a function that stops it after a last beat, so that the
 * API learns of a clean stop at once rather than after three missed beats.
 */
export async function beat(
  documents: DocumentStore,
  source: HeartbeatSource,
  log: Logger,
  hooks: BeatHooks = {},
  now = () => new Date(),
): Promise<() => Promise<void>> {
  const write = async () => {
    const at = now();
    const doc: Heartbeat = { status: source.status, position: source.position(), at: at.toISOString() };
    try {
      // A bookkeeping document: its write guard is the stamp, which also orders two beats of one millisecond (a stop right after a beat).
      await documents.write([{ collection: HEARTBEATS.name, id: PROJECTOR, doc: { ...doc }, position: stamp(at) }]);
      hooks.stored?.(doc);
    } finally {
      hooks.settled?.();
    }
  };
  // The first beat before the projector says it runs: an API started on that word finds it.
  await write().catch((err: unknown) => log.warn({ err }, 'could not write the projector heartbeat'));
  const timer = every(HEARTBEAT_MS, write, (err) => log.warn({ err }, 'could not write the projector heartbeat'));
  return async () => {
    clearInterval(timer);
    await write().catch((err: unknown) => log.warn({ err }, 'could not write the last projector heartbeat'));
  };
}

/** The projector as an API process sees it. */
export interface ProjectorStatus {
  /** Its last heartbeat's status, `stale` when that is older than three beats (dead, hung or cut off), `absent` when none was written. */
  status: string;
  position: Position | null;
  /** How long ago it last beat; null when it never did. */
  age_ms: number | null;
}

export async function projectorStatus(documents: DocumentStore, now = Date.now): Promise<ProjectorStatus> {
  const stored = await documents.get<Heartbeat>(HEARTBEATS.name, PROJECTOR);
  if (!stored) return { status: 'absent', position: null, age_ms: null };
  const age_ms = Math.max(0, now() - Date.parse(stored.doc.at));
  return { status: age_ms > STALE_AFTER_MS ? 'stale' : stored.doc.status, position: stored.doc.position, age_ms };
}
