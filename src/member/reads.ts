import { Position } from '../stores/ports';
import { ReadModels } from '../shared/projections/read-models';
import { membersProjection } from './projection';

/** The member slice's reads of its own read model. */
export function memberReads(reads: ReadModels) {
  return {
    member: (id: number, after?: Position | null) => reads.after(membersProjection, String(id), after),
  };
}
