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
const STALE_AFTER_MS = 3 * HEARTBEAT_MS;

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

/**
 * Writes the projector's heartbeat every HEARTBEAT_MS; a write that fails is simply missed (the
 * readers see the heartbeat age). Answers a function that stops it after a last beat, so that the
 * API learns of a clean stop at once rather than after three missed beats.
 */
export async function beat(
  documents: DocumentStore,
  source: HeartbeatSource,
  log: Logger,
  /** Told of each heartbeat stored: the projector's container health check watches it. */
  stored: (heartbeat: Heartbeat) => void = () => undefined,
  now = () => new Date(),
): Promise<() => Promise<void>> {
  const write = async () => {
    const at = now();
    const doc: Heartbeat = { status: source.status, position: source.position(), at: at.toISOString() };
    // A bookkeeping document: its write guard is the stamp, which also orders two beats of one millisecond (a stop right after a beat).
    await documents.write([{ collection: HEARTBEATS.name, id: PROJECTOR, doc: { ...doc }, position: stamp(at) }]);
    stored(doc);
  };
  // The first beat before the projector says it runs: an API started on that word finds it.
  await write().catch((err: unknown) => log.warn({ err }, 'could not write the projector heartbeat'));
  const timer = every(HEARTBEAT_MS, write, (err) => log.warn({ err }, 'could not write the projector heartbeat'));
  return async () => {
    clearInterval(timer);
    await write().catch((err: unknown) => log.warn({ err }, 'could not write the last projector heartbeat'));
  };
}

/**
 * The projector's status as an API process sees it: its last heartbeat's, or `stale` when the
 * last one is older than three beats (dead, hung or cut off), or `absent` when none was written.
 */
export async function projectorStatus(documents: DocumentStore, now = Date.now): Promise<{ status: string; position: Position | null }> {
  const stored = await documents.get<Heartbeat>(HEARTBEATS.name, PROJECTOR);
  if (!stored) return { status: 'absent', position: null };
  if (now() - Date.parse(stored.doc.at) > STALE_AFTER_MS) return { status: 'stale', position: stored.doc.position };
  return { status: stored.doc.status, position: stored.doc.position };
}
