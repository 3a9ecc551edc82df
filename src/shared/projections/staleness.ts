import { SubscriptionObserver } from '../../stores/ports';

/**
 * How long ago an in-memory replica last knew it was in touch with the event store. A confirmed
 * subscription counts as contact for as long as the adapter reports no drop (a quiet log
 * delivers nothing and is still current); after a drop, the replica vouches for what it holds
 * only for `maxStalenessMs`, the longest a revocation made through another instance may go unseen.
 */
export class SourceContact {
  private lostAt: number | null = null;
  /** Pass to subscribeAll: the adapter's word on drops and resumed subscriptions. */
  readonly observer: SubscriptionObserver = {
    onLive: () => this.heard(),
    onDropped: () => this.lost(),
  };

  constructor(
    private readonly maxStalenessMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The store delivered an event or confirmed the subscription. */
  heard(): void {
    this.lostAt = null;
  }

  /** The connection dropped; the first drop of an outage is when the clock starts. */
  lost(): void {
    this.lostAt ??= this.now();
  }

  /** How long the store has been out of touch: 0 while in touch. */
  lostForMs(): number {
    return this.lostAt === null ? 0 : this.now() - this.lostAt;
  }

  /** Whether what the replica holds may still be answered with. */
  vouches(): boolean {
    return this.lostAt === null || this.now() - this.lostAt <= this.maxStalenessMs;
  }
}
