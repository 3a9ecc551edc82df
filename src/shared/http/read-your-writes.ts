import { Position } from '../../stores/ports';
import { ProjectionLag } from '../projections/lag';
import { AppContext } from './context';
import { HttpError } from './envelope';
import { rememberPosition } from './session';

/** What a command answers: at least the position of the last event it appended, null when none. */
export interface Written {
  position: Position | null;
}

/**
 * Decide, then read what you answer: the one read-your-writes path of every write endpoint. The
 * write's position goes into the session first, so that the caller's later reads wait for it too;
 * then `read` gets the decision, to wait for the one read model it answers from and no other.
 */
export async function decideThenRead<Decision extends Written, Result>(
  ctx: AppContext,
  decide: () => Promise<Decision>,
  read: (decision: Decision) => Promise<Result>,
): Promise<Result> {
  const decision = await decide();
  rememberPosition(ctx, decision.position);
  try {
    return await read(decision);
  } catch (err) {
    // The decision is in the log: a client told only to retry would send it again and be refused.
    if (err instanceof ProjectionLag && decision.position !== null) throw recordedNotVisibleYet();
    throw err;
  }
}

function recordedNotVisibleYet(): HttpError {
  return new HttpError(
    503,
    'recorded_not_visible_yet',
    'the change was recorded (do not send it again), but the read models have not caught up to show it: read it back in a moment',
    undefined,
    { 'Retry-After': '1' },
  );
}
