import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { DocumentStore, EventStore, Position, RecordedEvent, START, StoredDocument } from '../../stores/ports';
import { documentsOf, evolveOrExplain, Projection } from './projection';
import { PositionWaiters } from './waiters';
import { SourceContact } from './staleness';

const RESUBSCRIBE_MS = 1000;
const DEFAULT_MAX_STALENESS_MS = 5000;
// Replaying from a stale checkpoint can take a while on a long log; start-up waits for it.
const CATCH_UP_MS = 10 * 60_000;

export type ReplicaStatus = 'following' | 'resubscribing' | 'halted';

/** The replica's subscription broke; until it resumes its answers could be stale, so none is given. */
export class ReplicaUnavailable extends Error {
  constructor(
    readonly projection: string,
    /** How the projection's slice words the refusal (Projection.unavailable). */
    readonly refusal?: { error: string; what: string },
  ) {
    super(`the in-memory replica of ${projection} is not following the log`);
    this.name = 'ReplicaUnavailable';
  }
}

/**
 * One projection kept in this process's memory, so that a lookup costs no round trip. It starts
 * from the stored read model and its checkpoint, then follows the global log itself with the same
 * pure `evolve`: an event reaches every instance as fast as the event store delivers it, which
 * bounds how long a revoked credential can still be accepted anywhere.
 */
export class Replica<Doc extends object> {
  private docs = new Map<string, StoredDocument<Doc>>();
  private byKey = new Map<string, string>();
  private reached: Position = START;
  /** Counts the changes applied to `docs`. */
  private changes = 0;
  private waiters = new PositionWaiters();
  private abort = new AbortController();
  private loop: Promise<void> = Promise.resolve();
  private live = false;
  /**
   * Documents an event could not be applied to (a damaged event, or one a newer release wrote):
   * their lookups are refused, fail closed, while every other document is still answered, and the
   * replica goes on following the log. The stored read model halts on the same event with a dead
   * letter (./dead-letters.ts), so a restart meets it again.
   */
  private readonly poisoned = new Set<string>();
  /** Set when an event's documents cannot even be named: then no lookup can be vouched for. */
  private halted = false;
  private readonly contact: SourceContact;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly projection: Projection<Doc>,
    /** The field lookups go by; unique across documents. */
    private readonly keyField: keyof Doc & string,
    private readonly log: Logger,
    /** KEY_RING_MAX_STALENESS_MS: how long after losing the event store lookups are still answered. */
    maxStalenessMs = DEFAULT_MAX_STALENESS_MS,
    now?: () => number,
  ) {
    this.contact = new SourceContact(maxStalenessMs, now);
  }

  /** Resolves once the replica has caught up with the log as it was at start: it never serves older answers. */
  async start(): Promise<void> {
    await this.documents.ensureCollections([this.projection.collection]);
    // Checkpoint first: documents read afterwards are at least that recent, and the position
    // guard skips what they already contain.
    this.reached = await this.documents.checkpoint(this.projection.name);
    for (const stored of await this.documents.find<Doc>(this.projection.collection.name, {})) this.put(stored);
    const head = await this.events.headPosition();
    this.loop = this.follow();
    await this.waitFor(head, CATCH_UP_MS);
  }

  /** The document whose key field equals `value`, from memory. */
  lookup(value: string): Doc | null {
    if (!this.vouches()) throw new ReplicaUnavailable(this.projection.name, this.projection.unavailable);
    const id = this.byKey.get(value);
    if (id !== undefined && this.poisoned.has(id))
      throw new ReplicaUnavailable(this.projection.name, this.projection.unavailable);
    return id === undefined ? null : (this.docs.get(id)?.doc ?? null);
  }

  /**
   * Changes with every document the replica applies, and is refused like a lookup when the
   * replica cannot vouch: what is built from the replica can be kept while this stays the same.
   */
  revision(): number {
    if (!this.vouches()) throw new ReplicaUnavailable(this.projection.name, this.projection.unavailable);
    return this.changes;
  }

  waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void> {
    if (!position || this.reached >= position) return Promise.resolve();
    if (projection !== undefined && projection !== this.projection.name) return Promise.resolve();
    return this.waiters.wait(position, timeoutMs);
  }

  /** `halted`: an event's documents could not be named, and no later event can make up for it. */
  status(): ReplicaStatus {
    if (this.halted) return 'halted';
    return this.vouches() ? 'following' : 'resubscribing';
  }

  /** How long the replica has been out of touch with the event store (0 while following it), in milliseconds. */
  stalenessMs(): number {
    return this.contact.lostForMs();
  }

  private vouches(): boolean {
    return this.live && !this.halted && this.contact.vouches();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  /**
   * Lookups are answered only once the replica has read up to the head of the log as it was
   * when the subscription (re)started, so neither a restart nor a dropped connection lets a
   * stale answer through.
   */
  private async follow(): Promise<void> {
    while (!this.abort.signal.aborted) {
      try {
        const head = await this.events.headPosition();
        this.live = this.reached >= head;
        for await (const event of this.events.subscribeAll(this.reached, this.abort.signal, this.contact.observer)) {
          this.contact.heard();
          this.apply(event);
          this.reached = event.position;
          if (event.position >= head) this.live = true;
          this.waiters.reached(event.position);
        }
      } catch (err) {
        if (this.abort.signal.aborted) return;
        this.live = false;
        this.log.error(
          { err, projection: this.projection.name },
          'replica lost the log; lookups refused until it resumes',
        );
        await sleep(RESUBSCRIBE_MS, undefined, { signal: this.abort.signal }).catch(() => undefined);
      }
    }
  }

  /**
   * Applies the event, or isolates what it cannot: resubscribing would meet the same event again,
   * forever, and a start-up waiting for the replica would never end.
   */
  private apply(event: RecordedEvent): void {
    let ids: string[];
    try {
      ids = documentsOf(this.projection, event);
    } catch (err) {
      this.halted = true;
      this.log.error(
        { err, projection: this.projection.name, position: event.position, type: event.type },
        'replica cannot tell which documents an event changes; every lookup refused',
      );
      return;
    }
    for (const id of ids) {
      if (this.poisoned.has(id)) continue;
      const stored = this.docs.get(id) ?? null;
      if (stored && stored.position >= event.position) continue;
      let doc: Doc | null;
      try {
        doc = evolveOrExplain(this.projection, stored?.doc ?? null, event);
      } catch (err) {
        this.poisoned.add(id);
        this.log.error(
          { err, projection: this.projection.name, document: id, position: event.position },
          'replica cannot apply an event; lookups of its document refused',
        );
        continue;
      }
      if (stored) this.remove(stored);
      if (doc) this.put({ id, doc, position: event.position });
    }
  }

  private put(stored: StoredDocument<Doc>): void {
    this.changes += 1;
    this.docs.set(stored.id, stored);
    this.byKey.set(String(stored.doc[this.keyField]), stored.id);
  }

  private remove(stored: StoredDocument<Doc>): void {
    this.changes += 1;
    this.docs.delete(stored.id);
    this.byKey.delete(String(stored.doc[this.keyField]));
  }
}
