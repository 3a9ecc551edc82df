import type { Logger } from 'pino';
import { DocumentStore, EventStore, Position, RecordedEvent, START } from '../../stores/ports';
import { applyEvent, flushFollower, Follower, follow, followOn, haltedBy } from './follower';
import {
  DEAD_LETTERS,
  DeadLetter,
  openDeadLetters,
  PoisonEvent,
  ProjectionHalted,
  recordDeadLetter,
  resolveDeadLetters,
} from './dead-letters';
import { Projection } from './projection';
import { ReadModelMaintenance } from './maintenance';
import { REBUILD_OFFERS } from './swap';
import { PROJECTION_VERSIONS } from './versions';
import { PositionWaiters } from './waiters';
import { DEFAULT_GIVE_UP_MS, keepTrying, StoreOutages, StoresUnreachable } from './outage';
import { every, settlesAtOnce, takingTurns } from './turns';
import { PendingCheckpoints } from './pending-checkpoints';
import { batchSpans } from '../tracing';

/** failed: the log is lost, or a projection halted on an event; interrupted: a store is unreachable, retried (not ready). */
export type RunnerStatus = 'stopped' | 'running' | 'interrupted' | 'failed';

// Checkpoints of events a projection ignores are flushed on a timer rather than one write each.
const CHECKPOINT_FLUSH_MS = 100;
// Events applied in memory before they are stored together; fewer when the log has no more at hand.
const BATCH_EVENTS = 500;
// How often a running runner looks for rebuilds offered by `platform projections rebuild`.
const OFFER_POLL_MS = 1000;
// How long stopping waits for the read models to reach the end of the log.
const STOP_CATCH_UP_MS = 5000;
const HOUSEKEEPING_FAILED = 'projection runner housekeeping failed; it is retried';

export interface RunnerOptions {
  /** AUTO_UPGRADE: rebuild outdated read models at start (default); when false they wait for `platform upgrade`. */
  autoUpgrade?: boolean;
  /** PROJECTION_GIVE_UP_MS: how long a store outage is retried before the runner gives up. */
  giveUpMs?: number;
  /** Told when the runner gave up: the process should exit non-zero, for the supervisor to restart it. */
  onGiveUp?: (err: Error) => void;
}

/**
 * Follows the global log from the projections' checkpoints and applies each event to every
 * projection that has not seen it. One subscription serves all projections so they advance
 * together, which keeps `waitFor` a single comparison. Events are applied in memory and stored
 * in batches, each projection's documents with its checkpoint in one write; a crash loses the
 * unstored batch, which is applied again from the checkpoint, and the position guard ignores
 * whatever part of it a non-atomic store had already written.
 *
 * A projection that cannot apply an event halts there, with a dead letter; the others go on.
 * The runner is the one writer of the live read models, so its maintenance (maintenance.ts)
 * swaps rebuilds in between its turns: outdated ones at start, and those offered later.
 */
export class ProjectionRunner {
  private followers = new Map<string, Follower>();
  private readonly pending: PendingCheckpoints;
  /** Dead letters whose event was applied after all, marked resolved at the next flush. */
  private resolved: DeadLetter[] = [];
  /** The last event every projection has dealt with, in memory. */
  private applied: Position = START;
  /** ...and stored: what readers may wait for. */
  private reached: Position = START;
  private waiters = new PositionWaiters();
  private abort = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  /** Applying events, flushing and swapping take turns. */
  private readonly exclusive = takingTurns();
  private timers: NodeJS.Timeout[] = [];
  private failure: Error | null = null;
  private running = false;
  private readonly maintenance: ReadModelMaintenance;
  private readonly outages: StoreOutages;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly projections: Projection[],
    private readonly log: Logger,
    private readonly options: RunnerOptions = {},
  ) {
    this.maintenance = new ReadModelMaintenance(events, documents, log, this);
    this.pending = new PendingCheckpoints(documents, log);
    this.outages = new StoreOutages(options.giveUpMs ?? DEFAULT_GIVE_UP_MS);
  }

  async start(): Promise<void> {
    const collections = this.projections.map((p) => p.collection);
    await this.documents.ensureCollections([...collections, DEAD_LETTERS, PROJECTION_VERSIONS, REBUILD_OFFERS]);
    for (const projection of this.projections) {
      const checkpoint = await this.documents.checkpoint(projection.name);
      this.followers.set(projection.name, follow(this.documents, projection, checkpoint));
    }
    // Rebuilds offered while no runner ran come first: they may make an upgrade unnecessary.
    await this.maintenance.adoptRebuilds();
    await this.maintenance.upgrade(this.projections, this.options.autoUpgrade !== false);
    for (const letter of await openDeadLetters(this.documents)) {
      this.followers.get(letter.projection)?.deadLetters.set(letter.position, letter);
    }
    const checkpoints = [...this.followers.values()].map((f) => f.checkpoint);
    this.applied = this.reached = checkpoints.reduce((a, b) => (a < b ? a : b), checkpoints[0] ?? START);
    this.running = true;
    this.loop = this.follow();
    this.every(CHECKPOINT_FLUSH_MS, () => this.pending.flush());
    this.every(OFFER_POLL_MS, () => this.exclusive(() => this.maintenance.adoptRebuilds()));
    const exhausted = () => this.outages.exhausted();
    this.every(OFFER_POLL_MS, async () => void (exhausted() && this.giveUp(exhausted()?.error)));
  }

  /** Resolves once every projection, or the named one, has applied the event at `position`. */
  waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void> {
    if (!position) return Promise.resolve();
    const halt = haltedBy(this.followers, position, projection);
    if (halt) return Promise.reject(new ProjectionHalted(halt));
    if (this.reached >= position) return Promise.resolve();
    if (this.failure) return Promise.reject(this.failure);
    // A halt fails every waiter at once; one waiting for another projection waits on.
    return this.waiters.wait(position, timeoutMs).catch((err: unknown) => {
      const elsewhere =
        err instanceof ProjectionHalted && projection !== undefined && err.poison.projection !== projection;
      if (!elsewhere) throw err;
      return this.waitFor(position, timeoutMs, projection);
    });
  }

  position(): Position {
    return this.reached;
  }

  get status(): RunnerStatus {
    if (this.failed()) return 'failed';
    if (this.outages.ongoing) return 'interrupted';
    return this.running ? 'running' : 'stopped';
  }

  failed(): Error | null {
    return this.failure ?? [...this.followers.values()].find((f) => f.halted)?.halted ?? null;
  }

  /**
   * Catches up with the log as it is now (for a while at most), so that the read models and
   * checkpoints stored at exit are at the log head and the next start has nothing to replay; then
   * stops following, stores the batch in memory and the checkpoints not yet stored.
   */
  async stop(): Promise<void> {
    await this.catchUp();
    this.abort.abort();
    for (const timer of this.timers) clearInterval(timer);
    await this.loop;
    try {
      await this.exclusive(() => this.flush());
    } catch (err) {
      this.log.warn({ err }, 'could not store the last batch; it is applied again at the next start');
    }
    await this.pending.flush();
    this.running = false;
  }

  private async catchUp(): Promise<void> {
    if (!this.running || this.failed()) return;
    try {
      await this.waitFor(await this.events.headPosition(), STOP_CATCH_UP_MS);
    } catch (err) {
      this.log.warn(
        { err },
        'stopping before the read models reached the end of the log; the next start applies the rest',
      );
    }
  }

  /**
   * Follows the log; a store that fails (the document store on a write, the event store on a
   * read) is retried after a growing pause from the last event applied, the batch in memory kept
   * for the next flush. Only a checkpoint the log does not know stops it at once.
   */
  private async follow(): Promise<void> {
    const { store } = this.outages;
    const retrying = (err: unknown, retryInMs: number) =>
      this.log.warn(
        { err, retryInMs: Math.round(retryInMs), outageMs: store.lasted() },
        'projection runner cut off from a store; retrying',
      );
    const attempt = async () => (store.ongoing ? this.recover() : Promise.resolve()).then(() => this.followOnce());
    await keepTrying(store, this.abort.signal, attempt, {
      fatal: (err) => this.fail(err),
      giveUp: (err) => this.giveUp(err),
      retrying,
    });
  }

  /** Stores the batch kept in memory and asks both stores something: the outage is over once they answer. */
  private async recover(): Promise<void> {
    await this.exclusive(() => this.flush());
    await this.documents.checkpoint(this.projections[0]?.name ?? '');
    await this.events.headPosition();
    this.outages.store.ended();
  }

  private async followOnce(): Promise<void> {
    const subscription = this.events.subscribeAll(this.applied, this.abort.signal, this.outages.observer);
    const iterator = subscription[Symbol.asyncIterator]();
    const spans = batchSpans('projection batch', 'platform.projection.events');
    let inBatch = 0;
    try {
      for (let next = iterator.next(); ;) {
        const { done, value } = await next;
        if (done) return;
        this.outages.log.ended();
        spans.begin();
        await this.exclusive(() => this.applyToAll(value));
        next = iterator.next();
        if (++inBatch >= BATCH_EVENTS || !(await settlesAtOnce(next))) {
          await this.exclusive(() => this.flush());
          spans.end(inBatch);
          inBatch = 0;
          // A backlog is read and applied without waiting on anything: let requests and timers in.
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      // A batch cut short by a failure: the failure is logged, and counted by the store metrics.
      spans.end(inBatch);
      void iterator.return?.(undefined)?.catch(() => undefined);
    }
  }

  private fail(err: unknown): void {
    this.failure = err instanceof Error ? err : new Error(String(err));
    this.log.error({ err: this.failure }, 'projection runner stopped on an error');
    this.waiters.failAll(this.failure);
  }

  /** The outage outlasted PROJECTION_GIVE_UP_MS: stop, and let the process exit for the supervisor to restart it. */
  private giveUp(err: unknown): void {
    if (this.failure) return;
    this.fail(new StoresUnreachable(this.options.giveUpMs ?? DEFAULT_GIVE_UP_MS, err));
    this.abort.abort();
    this.options.onGiveUp?.(this.failure!);
  }

  private async applyToAll(event: RecordedEvent): Promise<void> {
    for (const follower of this.followers.values()) {
      if (follower.halted || event.position <= follower.checkpoint) continue;
      const outcome = await applyEvent(follower, event);
      if (outcome instanceof PoisonEvent) await this.halt(follower, outcome);
      else if (outcome) this.resolved.push(outcome);
    }
    this.applied = event.position;
  }

  /** Stops one projection at the event, which stays unapplied: its checkpoint does not pass it. */
  private async halt(follower: Follower, poison: PoisonEvent): Promise<void> {
    follower.halted = poison;
    // Readers of earlier positions get their answer; every reader still waiting is at or past the poison.
    await this.flush();
    this.waiters.failAll(new ProjectionHalted(poison));
    const letter = await recordDeadLetter(this.documents, poison);
    follower.deadLetters.set(letter.position, letter);
    const { position, event_type: type, stream, error } = letter;
    this.log.error(
      { projection: poison.projection, position, type, stream, error },
      'projection halted on an event it cannot apply; the other projections go on',
    );
  }

  /** The projection this runner runs under that name, with where it stands. */
  follower(name: string): Follower | undefined {
    return this.followers.get(name);
  }

  /** Whether the log could not be followed: nothing sound to catch a rebuild up with. */
  lostTheLog(): boolean {
    return this.failure !== null;
  }

  /** Follows the projection on from `position`, with a fresh batch: a rebuild was swapped in there. */
  restartAt(projection: Projection, position: Position): void {
    const { name } = projection;
    this.followers.set(name, followOn(this.documents, projection, position, this.followers.get(name)!));
    this.pending.delete(name);
  }

  async flush(): Promise<void> {
    for (const follower of this.followers.values()) await flushFollower(this.documents, follower, this.pending);
    await resolveDeadLetters(this.documents, this.resolved.splice(0));
    this.advance(this.applied);
  }

  private advance(position: Position): void {
    if (position <= this.reached) return;
    this.reached = position;
    this.waiters.reached(position);
  }

  private every(ms: number, work: () => Promise<void>): void {
    this.timers.push(every(ms, work, (err) => this.log.warn({ err }, HOUSEKEEPING_FAILED)));
  }
}
