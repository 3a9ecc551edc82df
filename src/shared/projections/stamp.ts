import { Position } from '../../stores/ports';

let written = 0;

/**
 * The write guard of a bookkeeping document (versions, dead letters, rebuild offers). Those record
 * what a process did, not what the log says, so no event position orders their versions: the time
 * of the write does, with a counter that orders writes of one process within a millisecond.
 */
export function stamp(now = new Date()): Position {
  written += 1;
  return `${now.toISOString()}#${String(written).padStart(15, '0')}`;
}
