import { STALE_AFTER_MS } from './heartbeat';

/**
 * How long the projector's heartbeat loop may go without a beat ending (stored or refused) before
 * the projector takes itself for hung: twice the age at which the API calls it stale, so that one
 * slow write under load is not taken for a hang.
 */
export const STALLED_AFTER_MS = 2 * STALE_AFTER_MS;

/**
 * Watches the heartbeat loop: when no beat has ended for `limitMs` (a write that never returns,
 * a loop that no longer turns), `stalled` is told, once. The projector then exits for its
 * supervisor to start a fresh one: Docker's restart policy restarts a process that exited, never
 * one that is merely unhealthy. A store that refuses writes is not a stall: the beats end, and the
 * runner's own outage limit (PROJECTION_GIVE_UP_MS) decides.
 */
export function watchBeats(
  stalled: (sinceMs: number) => void,
  limitMs = STALLED_AFTER_MS,
  now = Date.now,
): { beat(): void; stop(): void } {
  let last = now();
  const timer = setInterval(
    () => {
      const since = now() - last;
      if (since <= limitMs) return;
      clearInterval(timer);
      stalled(since);
    },
    Math.max(10, Math.floor(limitMs / 10)),
  );
  timer.unref();
  return { beat: () => void (last = now()), stop: () => clearInterval(timer) };
}
