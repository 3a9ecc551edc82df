/**
 * The records of requests made under an idempotency key (docs/rules.md, "Idempotency keys"):
 * the first answer to a write, kept so that a retry gets it again instead of writing twice.
 */

/**
 * What a request under a key was first answered: its status and its body as sent, or null for
 * an answer that carried a secret shown once, which is never stored.
 */
export interface KeptAnswer {
  status: number;
  body: string | null;
}

/** Who holds a key: a request still in flight, or the answer it gave. */
export type IdempotencyRecord =
  { state: 'in_flight'; fingerprint: string } | { state: 'answered'; fingerprint: string; answer: KeptAnswer };

export interface IdempotencyRecords {
  /**
   * Takes the key for the request `holder`, unless a live record holds it: answers null once taken
   * (the holder then calls `answered` or `release`), else the record that holds it. A taken key is
   * held `leaseMs`: the record of a request whose process died runs out and is taken over.
   */
  begin(key: string, holder: string, fingerprint: string, leaseMs: number): Promise<IdempotencyRecord | null>;
  /** Keeps the holder's answer `ttlMs`; nothing when another request took the key over meanwhile. */
  answered(key: string, holder: string, answer: KeptAnswer, ttlMs: number): Promise<void>;
  /** Forgets the key, so that a retry runs again; nothing when another request took it over. */
  release(key: string, holder: string): Promise<void>;
}
