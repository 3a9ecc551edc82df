import { appendDecided, CommandContext, streamEnd } from '../../shared/commands/context';
import { EventStore } from '../../stores/ports';
import { KeyRotated, KEY_ROTATED_TYPE, KEY_STREAM } from './checkpoint';

/** Appends the rotation to the log, chained to the earlier ones, in the name of whoever ran the command. */
export async function recordRotation(events: EventStore, ctx: CommandContext, rotation: KeyRotated): Promise<void> {
  const [last] = await events.readStream(KEY_STREAM, { direction: 'backwards', maxCount: 1 });
  await appendDecided(events, KEY_STREAM, [{ type: KEY_ROTATED_TYPE, data: rotation }], ctx, streamEnd(last));
}
