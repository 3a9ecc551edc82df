import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../src/stores/ports';

/** An event with no data, as the CLI would append it: what the SQLite tests append when only its place matters. */
export function event(type: string): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'cli', id: null }, request_id: randomUUID(), time: new Date().toISOString() },
  };
}
