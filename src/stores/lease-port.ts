/**
 * The lease port: which one of several processes may do a piece of work (the projector's), for a
 * term it renews, with a fencing token. Every term a new holder starts has a token greater than
 * every earlier term's, so that a store can refuse the writes of a holder whose term is over
 * (DocumentStore.fence): a process that paused past its term and wakes up cannot overwrite what
 * its successor wrote (Kleppmann, "How to do distributed locking", 2016).
 */

/** One term of a lease, as the store recorded it. */
export interface LeaseTerm {
  /** Who holds it: a name of the process that is unique to this start (host, pid, random). */
  holder: string;
  /** Increases with every new term, never with a renewal. */
  token: number;
  /** When the term ends unless renewed, in ms since the epoch, by the store's clock. */
  expiresAt: number;
}

/** What a fenced write carries: the lease it was made under and that term's token. */
export interface Fence {
  lease: string;
  token: number;
}

export interface Leases {
  /**
   * Starts a term of `ttlMs` for `holder` when the lease is free or its term is over (a new token),
   * or renews it when `holder` already holds it (the same token). Answers the term, or null when
   * another holder's term is running.
   */
  acquire(lease: string, holder: string, ttlMs: number): Promise<LeaseTerm | null>;
  /**
   * Extends the term of this holder and token by `ttlMs` from now; null when the lease has moved
   * on (another holder took it after the term ended, or it was released): the holder is deposed.
   */
  renew(lease: string, holder: string, token: number, ttlMs: number): Promise<LeaseTerm | null>;
  /** Ends this term now, so a waiting process takes over at its next poll; nothing when it has moved on. */
  release(lease: string, holder: string, token: number): Promise<void>;
  /** The lease's current or last term; null when it was never taken. */
  current(lease: string): Promise<LeaseTerm | null>;
}

/** The lease the projector holds: one projector writes the read models and sends the messages. */
export const PROJECTOR_LEASE = 'projector';

/** A write refused because it carried the token of a term that is over: its writer was deposed. */
export class LeaseLost extends Error {
  constructor(
    readonly fence: Fence,
    /** The lease's current token, when the store read it. */
    readonly current?: number,
  ) {
    super(
      `write refused: it carries token ${fence.token} of the lease "${fence.lease}", ` +
        `which has moved on${current === undefined ? '' : ` to token ${current}`}; this process no longer holds it`,
    );
    this.name = 'LeaseLost';
  }
}
