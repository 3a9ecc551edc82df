/** What a login, registration or logout does to a session, decided when it commits. */
export interface SessionMove {
  /**
   * The data of the new session, made of the old one as it is now: null when it was destroyed,
   * expired or moved to a new id by another login or logout meanwhile. What it was moved to is
   * never handed over: it may be another client's, which took over the old id.
   */
  change(current: Record<string, unknown> | null): Record<string, unknown>;
  ttlMs(data: Record<string, unknown>): number;
  /**
   * What a logout also does, in place, to the live session the old one was moved to meanwhile,
   * so that an identity it ends is not left in the successor.
   */
  successor?(data: Record<string, unknown>): Record<string, unknown>;
}

/** Who a session holds, on which side: its data keeps it under `member` or `admin`, with its id. */
export interface SessionIdentity {
  side: 'member' | 'admin';
  id: number;
}

export interface SessionStore {
  /** A live session's data; null for one that expired, was destroyed or was moved to a new id. */
  get(id: string): Promise<Record<string, unknown> | null>;
  /** Stores a session under an id never used before; it expires `ttlMs` after this call unless renewed. */
  create(id: string, data: Record<string, unknown>, ttlMs: number): Promise<void>;
  /**
   * Replaces a live session's data and renews it as `touch` does. A session destroyed, moved or
   * expired meanwhile stays gone (false): a request that began before a logout cannot bring the
   * session back.
   */
  update(id: string, data: Record<string, unknown>, ttlMs: number): Promise<boolean>;
  /**
   * Renews a live session so that it lives at least `ttlMs` from now, leaving its data as the
   * last update left it, and says whether it is live. The store may extend it a few seconds more
   * (session-renewal.ts), so that a session used by every request is written once in a while,
   * not on every request.
   */
  touch(id: string, ttlMs: number): Promise<boolean>;
  /**
   * Moves the session `from` to the new id `to`, with the data `move.change` makes of it as it is
   * at this moment, not as the request read it. Atomic against other moves and updates of the same
   * session (a compare-and-set): of two crossing moves, the second sees the first's. `from` is
   * dead afterwards. Answers the data stored under `to`.
   */
  regenerate(from: string, to: string, move: SessionMove): Promise<Record<string, unknown>>;
  destroy(id: string): Promise<void>;
  /**
   * Ends every session that holds this identity (`data[side].id`), except the session `except`:
   * destroyed, as a logout's old id is, so that no request still running on one can save it
   * back. Answers how many ended. A password reset or change signs the identity out everywhere.
   */
  endAllOf(identity: SessionIdentity, except?: string): Promise<number>;
  close(): Promise<void>;
}
