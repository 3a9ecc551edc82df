import { Checkpoint, CHECKPOINT_STREAM, CHECKPOINT_TYPE } from '../../../src/audit/proof/checkpoint';
import { parseNote } from '../../../src/audit/proof/note';
import { appendDecided, streamEnd } from '../../../src/shared/commands/context';
import { EventStore } from '../../../src/stores/ports';

/** The checkpoints signed in the log, oldest first. */
export const signedCheckpoints = async (events: EventStore): Promise<Checkpoint[]> =>
  (await events.readStream(CHECKPOINT_STREAM))
    .filter((e) => e.type === CHECKPOINT_TYPE)
    .map((e) => e.data as Checkpoint);

/** The hashes of the keys each checkpoint is signed by, oldest checkpoint first. */
export const signersOf = async (events: EventStore): Promise<string[][]> =>
  (await signedCheckpoints(events)).map((c) => parseNote(c.note).signatures.map((s) => s.hash));

/** `count` events appended to the stream as a command appends them, each chained to the one before. */
export async function appendTo(
  events: EventStore,
  stream: string,
  count = 1,
  type = 'PlatformSeeded',
  data: Record<string, unknown> = {},
): Promise<void> {
  for (let i = 0; i < count; i++) {
    const [last] = await events.readStream(stream, { direction: 'backwards', maxCount: 1 });
    const ctx = { actor: { kind: 'system' as const, id: 'test' }, requestId: `req-${Math.random()}`, now: new Date() };
    await appendDecided(events, stream, [{ type, data }], ctx, streamEnd(last));
  }
}
