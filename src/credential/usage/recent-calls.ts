import { z } from 'zod';

/** How many of a credential's calls are kept: the newest replace the oldest. */
export const RECENT_CALLS = 100;

/** What the partner path knows of a call once it is answered. */
export interface CallMade {
  method: string;
  /** As requested: the path, and the query string when there was one. */
  path: string;
  latency_ms: number;
}

interface Kept extends CallMade {
  at: number;
  status: number;
  key: string | null;
}

interface Ring {
  calls: Kept[];
  /** Where the next call goes once the ring is full. */
  next: number;
}

export const recentCallSchema = z
  .object({
    time: z.iso.datetime(),
    method: z.string(),
    path: z.string(),
    status: z.int(),
    latency_ms: z.number().min(0),
    key_fingerprint: z
      .string()
      .nullable()
      .meta({ description: "The key's fingerprint (as in GET /developer/usage); null when the key did not match" }),
  })
  .meta({ id: 'RecentCall' });

export type RecentCall = z.infer<typeof recentCallSchema>;

/**
 * Each credential's last RECENT_CALLS open-API calls, in this process's memory only: filled after
 * the answer is sent, one object per call, nothing written to a store. A process that restarts
 * starts empty; with several processes behind a balancer each keeps the calls it served.
 */
export class RecentCalls {
  private readonly rings = new Map<number, Ring>();

  /** `key`: the fingerprint of the key the call was made with; null when it did not match. */
  record(memberId: number, status: number, key: string | null, call: CallMade, at = Date.now()): void {
    const kept: Kept = { at, status, key, method: call.method, path: call.path, latency_ms: call.latency_ms };
    const ring = this.rings.get(memberId);
    if (!ring) this.rings.set(memberId, { calls: [kept], next: 0 });
    else if (ring.calls.length < RECENT_CALLS) ring.calls.push(kept);
    else {
      ring.calls[ring.next] = kept;
      ring.next = (ring.next + 1) % RECENT_CALLS;
    }
  }

  /** The member's credential's kept calls, newest first. */
  of(memberId: number): RecentCall[] {
    const ring = this.rings.get(memberId);
    if (!ring) return [];
    const inOrder = [...ring.calls.slice(ring.next), ...ring.calls.slice(0, ring.next)];
    return inOrder.reverse().map((c) => ({
      time: new Date(c.at).toISOString(),
      method: c.method,
      path: c.path,
      status: c.status,
      latency_ms: Math.round(c.latency_ms * 100) / 100,
      key_fingerprint: c.key,
    }));
  }
}
