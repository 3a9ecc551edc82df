import { Position } from '../stores/ports';
import { ReadModels } from '../shared/projections/read-models';
import { normaliseUsername } from './fields';
import { membersProjection } from './projection';

/** The member slice's reads of its own read model. */
export function memberReads(reads: ReadModels) {
  return {
    member: (id: number, after?: Position | null) => reads.after(membersProjection, String(id), after),
    /** The member with this username, whatever its case, as of every event committed before the call. */
    /** The members who gave this e-mail address (confirmed), as of every event committed before the call. */
    byEmail: async (email: string) => await reads.allLatest(membersProjection, { email }),
    byUsername: async (username: string) =>
      (await reads.allLatest(membersProjection, { username_key: normaliseUsername(username) }))[0] ?? null,
  };
}
