import { Position } from '../../stores/ports';
import { AppContext } from './context';
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
export async function decideThenRead<Decision extends Written, Answer>(
  ctx: AppContext,
  decide: () => Promise<Decision>,
  read: (decision: Decision) => Promise<Answer>,
): Promise<Answer> {
  const decision = await decide();
  rememberPosition(ctx, decision.position);
  return read(decision);
}
