import { idOf, IdAllocated, nextId, Sequence } from '../domain/sequences';
import { EventStore, WrongExpectedVersion } from '../../stores/ports';
import { appendDecided, CommandContext, recordedAfter, streamEnd } from './context';
import { loadStream, retryOnConflict } from './handle';

// Many commands contend for a sequence at once; each round one of them wins, so allow more
// rounds than a single aggregate needs.
const ALLOCATION_ATTEMPTS = 100;

/** The next id of a sequence, appended with the revision of the last one so that no two callers share it. */
export function allocateId(store: EventStore, sequence: Sequence, ctx: CommandContext): Promise<number> {
  return retryOnConflict(sequence.stream, ALLOCATION_ATTEMPTS, async () => {
    const [last] = await loadStream<IdAllocated>(store, sequence.stream, { direction: 'backwards', maxCount: 1 });
    const next = nextId(sequence, last ?? null);
    await appendDecided(store, sequence.stream, [next], recordedAfter(ctx, last), streamEnd(last));
    return idOf(sequence, next);
  });
}

/**
 * Creates an aggregate under the lowest id whose stream does not exist yet: `streamOf(id)` is
 * tried from 1 upwards and taken with `no_stream`, so two creators never share an id. Meant for
 * the few, fixed-id things (role groups, member groups) that seeding also creates by id.
 */
export async function createAtFreeId(
  store: EventStore,
  streamOf: (id: number) => string,
  create: (id: number) => Promise<string>,
): Promise<{ id: number; position: string }> {
  for (let id = 1; ; id++) {
    const [existing] = await store.readStream(streamOf(id), { maxCount: 1 });
    if (existing) continue;
    try {
      return { id, position: await create(id) };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersion)) throw err;
    }
  }
}
