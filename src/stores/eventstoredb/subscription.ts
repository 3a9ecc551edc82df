import { setTimeout as delay } from 'node:timers/promises';
import {
  excludeSystemEvents,
  START as CLIENT_START,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type KurrentDBClient,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import { InvalidPosition, START, type Position, type RecordedEvent, type SubscriptionObserver } from '../ports';
import { RESUBSCRIBE_BACKOFF, backoffDelay } from './backoff';
import { decodePosition, encodePosition } from './positions';
import { isServiceEvent, toRecorded } from './reads';

/** Events the client's subscription stream holds before back-pressure reaches the server. */
const SUBSCRIPTION_BUFFER = 64;
/**
 * A subscription must stay up this long before its back-off starts again from the first step:
 * one the server confirms and then fails at once would otherwise be retried every 100-200 ms.
 */
export const STABLE_AFTER_MS = 30_000;

/** The subset of a pino logger the adapters use. */
export interface StoreLog {
  warn(obj: object, msg: string): void;
}

/**
 * A subscription on a connection that a silent partition has frozen raises nothing until gRPC
 * keepalive gives up on it (the client's 10 s interval plus 10 s timeout): every `everyMs` the
 * subscription asks the server for the head of the log, and ends itself as dropped when no answer
 * comes within `timeoutMs`, so a partition is told to the observer within everyMs + timeoutMs.
 */
export interface LivenessProbe {
  everyMs: number;
  timeoutMs: number;
}

export const LIVENESS_PROBE: LivenessProbe = { everyMs: 1_000, timeoutMs: 1_500 };

/**
 * How long a position the server refuses (after the head of its log, or not where an event
 * begins) is retried before it is taken as a checkpoint from another database: a node just
 * elected, or one still catching up after a failover, may answer from a log that lags for a while.
 */
export const REFUSAL_GRACE_MS = 60_000;

export interface FollowOptions {
  log?: StoreLog;
  probe?: LivenessProbe;
  refusalGraceMs?: number;
  /** Jitter source for resubscribe back-off; Math.random unless given. */
  random?: () => number;
  now?: () => number;
  observer?: SubscriptionObserver;
}

/**
 * Pulls from the client's subscription one event at a time, so events are handled strictly in
 * order and the client buffers at most SUBSCRIPTION_BUFFER events before gRPC flow control
 * holds the server back. The client never re-establishes a dropped subscription: this does,
 * after a back-off that grows until a subscription has stayed up STABLE_AFTER_MS, from the last
 * event delivered (subscription positions are exclusive), and tells the observer of each drop.
 * Before each subscription it checks `resumeAfter` against the head of the log: a position past
 * it would wait silently for events that will never come, so it fails loudly instead.
 */
export async function* followAll(
  client: KurrentDBClient,
  from: Position,
  stop: AbortSignal,
  head: () => Promise<Position>,
  options: FollowOptions = {},
  ping?: (timeoutMs: number) => Promise<unknown>,
): AsyncGenerator<RecordedEvent> {
  const settings = followSettings(options);
  const following: Following = { resumeAfter: from, attempt: 0 };
  while (!stop.aborted) {
    const outcome: SubscriptionOutcome = {};
    const checked = await checkAgainstHeadOrFail(following.resumeAfter, head);
    // Stopped while the head was read: a subscription opened now would never see the abort.
    if (stop.aborted) return;
    if ('failure' in checked) outcome.failure = checked.failure;
    else yield* subscribeOnce({ client, stop, ping, settings, following }, outcome);
    if (stop.aborted) return;
    throwWhenRefusedPastGrace(following, outcome.failure, settings);
    await waitToResubscribe(following, outcome, settings, stop);
  }
}

type FollowSettings = Required<Pick<FollowOptions, 'probe' | 'refusalGraceMs' | 'random' | 'now'>> &
  Pick<FollowOptions, 'log' | 'observer'>;

function followSettings(options: FollowOptions): FollowSettings {
  return {
    ...options,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    probe: options.probe ?? LIVENESS_PROBE,
    refusalGraceMs: options.refusalGraceMs ?? REFUSAL_GRACE_MS,
  };
}

/** What lasts across subscriptions: where to resume, the back-off step, since when positions are refused. */
interface Following {
  resumeAfter: Position;
  attempt: number;
  refusedSince?: number;
}

/** How one subscription ended: why it failed, and since when it had been up. */
interface SubscriptionOutcome {
  failure?: unknown;
  upSince?: number;
}

interface Subscribing {
  client: KurrentDBClient;
  stop: AbortSignal;
  ping?: (timeoutMs: number) => Promise<unknown>;
  settings: FollowSettings;
  following: Following;
}

/** A head that cannot be read or a position past it is a failure of this round, not of the generator. */
async function checkAgainstHeadOrFail(
  position: Position,
  head: () => Promise<Position>,
): Promise<Awaited<ReturnType<typeof checkAgainstHead>>> {
  try {
    return await checkAgainstHead(position, head);
  } catch (refusal) {
    return { failure: refusal };
  }
}

/** One subscription from `following.resumeAfter`, until it drops, ends, stops or stops answering the probe. */
async function* subscribeOnce(
  { client, stop, ping, settings, following }: Subscribing,
  outcome: SubscriptionOutcome,
): AsyncGenerator<RecordedEvent> {
  const subscription = client.subscribeToAll(
    { fromPosition: toReadPosition(following.resumeAfter), filter: excludeSystemEvents(), requiresLeader: true },
    { highWaterMark: SUBSCRIPTION_BUFFER },
  );
  subscription.once('confirmation', () => {
    outcome.upSince = settings.now();
    following.refusedSince = undefined;
    settings.observer?.onLive?.();
  });
  // A cancelled gRPC call does not always end the client's stream; destroying it does.
  const end = () => subscription.destroy();
  stop.addEventListener('abort', end, { once: true });
  const prober = ping && startProbing(ping, settings.probe, end);
  try {
    yield* deliver(subscription, following, outcome);
  } finally {
    prober?.stop();
    stop.removeEventListener('abort', end);
    await release(subscription);
  }
  outcome.failure = prober?.unanswered() ?? outcome.failure;
}

/** Asks for the head every `everyMs`; the first unanswered ask ends the subscription and is its failure. */
function startProbing(ping: (timeoutMs: number) => Promise<unknown>, probe: LivenessProbe, end: () => void) {
  let unanswered: unknown;
  let probing = false;
  const timer = setInterval(() => {
    if (probing) return;
    probing = true;
    ping(probe.timeoutMs).then(
      () => (probing = false),
      (error: unknown) => {
        unanswered ??= error;
        end();
      },
    );
  }, probe.everyMs);
  return { stop: () => clearInterval(timer), unanswered: () => unanswered };
}

async function* deliver(
  subscription: AllStreamSubscription,
  following: Following,
  outcome: SubscriptionOutcome,
): AsyncGenerator<RecordedEvent> {
  const iterator = subscription[Symbol.asyncIterator]();
  for (;;) {
    const next = await pull(iterator);
    if ('dropped' in next) {
      outcome.failure = next.dropped;
      return;
    }
    if (next.done) return;
    const { event } = next.value;
    // The server-side filter already excludes $-types; system streams are excluded too,
    // as some server versions wrote checkpoint events without the $ prefix.
    if (!event || !isServiceEvent(event)) continue;
    const position = encodePosition(event.position);
    const recorded = toRecorded(event, position);
    following.resumeAfter = position;
    yield recorded;
  }
}

function throwWhenRefusedPastGrace(following: Following, failure: unknown, settings: FollowSettings): void {
  const refused = failure instanceof InvalidPosition ? failure : refusedPosition(failure, following.resumeAfter);
  if (!refused) return;
  following.refusedSince ??= settings.now();
  if (settings.now() - following.refusedSince >= settings.refusalGraceMs) throw refused;
}

async function waitToResubscribe(
  following: Following,
  outcome: SubscriptionOutcome,
  settings: FollowSettings,
  stop: AbortSignal,
): Promise<void> {
  if (outcome.upSince !== undefined && settings.now() - outcome.upSince >= STABLE_AFTER_MS) following.attempt = 0;
  const wait = backoffDelay(following.attempt++, RESUBSCRIBE_BACKOFF, settings.random);
  settings.observer?.onDropped?.(outcome.failure, wait);
  settings.log?.warn(
    {
      err: outcome.failure,
      resumeAfter: following.resumeAfter,
      attempt: following.attempt,
      retryInMs: Math.round(wait),
    },
    'KurrentDB subscription to $all dropped; resubscribing',
  );
  // Rejects only when `stop` aborts, which the loop condition then handles.
  await delay(wait, undefined, { signal: stop }).catch(() => undefined);
}

/**
 * Throws InvalidPosition when `position` is after the last event of the log; a head that cannot
 * be read (the server is away) is a failure to retry like a dropped subscription.
 */
export async function checkAgainstHead(
  position: Position,
  head: () => Promise<Position>,
): Promise<{ failure: unknown } | { ok: true }> {
  if (position === START) return { ok: true };
  let last: Position;
  try {
    last = await head();
  } catch (failure) {
    return { failure };
  }
  if (position > last) {
    throw new InvalidPosition(
      position,
      `after the head of the log (${last || 'empty'}): a checkpoint from another or a restored database; ${REBUILD_ADVICE}`,
    );
  }
  return { ok: true };
}

const REBUILD_ADVICE = 'rebuild the projections (platform projections rebuild) against this one';

/**
 * The server's refusal to read $all from a position where no event begins (KurrentDB answers
 * "Trying to read from an invalid position"): a checkpoint from another or a restored database
 * that falls inside this log. Subscribing again would be refused again, forever.
 */
export function refusedPosition(failure: unknown, position: Position): InvalidPosition | undefined {
  if (!(failure instanceof Error) || !/invalid position/i.test(failure.message)) return undefined;
  return new InvalidPosition(
    position,
    `not where an event of this log begins: a checkpoint from another or a restored database; ${REBUILD_ADVICE}`,
  );
}

type Pulled = IteratorResult<AllStreamResolvedEvent> | { dropped: unknown };

/** Separates the subscription failing from everything else that may throw in the loop. */
async function pull(iterator: AsyncIterator<AllStreamResolvedEvent>): Promise<Pulled> {
  try {
    return await iterator.next();
  } catch (dropped) {
    return { dropped };
  }
}

async function release(subscription: AllStreamSubscription): Promise<void> {
  subscription.destroy();
  // Cancels the gRPC call; it rejects when the call never started, which needs no cancelling.
  await subscription.unsubscribe().catch(() => undefined);
}

export function toReadPosition(position: Position): ReadPosition {
  return position === START ? CLIENT_START : decodePosition(position);
}
