import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Fence, LeaseTerm, Leases } from '../../stores/ports';

/**
 * How a holder uses a lease of PROJECTOR_LEASE_MS (`ttlMs`). Its terms last 90 % of it and the
 * waiting processes ask every tenth of it, so one takes over within `ttlMs` of the holder's last
 * renewal, however the two fall; the holder renews every third of it, so one slow or failed
 * renewal does not depose it.
 */
export function leaseTiming(ttlMs: number): { termMs: number; renewMs: number; pollMs: number } {
  return {
    termMs: Math.floor(ttlMs * 0.9),
    renewMs: Math.max(1, Math.floor(ttlMs / 3)),
    pollMs: Math.max(1, Math.floor(ttlMs / 10)),
  };
}

export interface TenureOptions {
  lease: string;
  /** This process's name in the lease, unique to this start. */
  holder: string;
  ttlMs: number;
  log: Logger;
  /**
   * Told once when this process no longer holds the lease: a renewal found it taken, or its term
   * ran out before a renewal got through. Its work must stop: the store refuses its writes from
   * the moment a successor's term begins.
   */
  onLost(reason: string): void;
  /** Told once when another process holds the lease and this one starts waiting. */
  onWaiting?(current: LeaseTerm | null): void;
  /** Told at each poll the store answered while it waits: the process is alive and waiting as it should. */
  onPoll?(): void;
  signal?: AbortSignal;
  now?: () => number;
}

export interface Tenure {
  /** What this term's writes carry (DocumentStore.fence). */
  readonly fence: Fence;
  held(): boolean;
  /** Stops renewing and ends the term, so that a waiting process takes over at its next poll. */
  release(): Promise<void>;
}

/**
 * Waits until this process holds the lease (polling while another holds it), then keeps it,
 * renewing it, until it is released or lost. A store that does not answer is asked again at the
 * next poll: only the lease's own answer, or the end of the term by this process's clock, counts.
 */
export async function holdLease(leases: Leases, options: TenureOptions): Promise<Tenure> {
  const { lease, holder, log, signal, now = Date.now } = options;
  const { termMs, renewMs, pollMs } = leaseTiming(options.ttlMs);
  let waiting = false;
  for (;;) {
    signal?.throwIfAborted();
    const sent = now();
    const term = await leases.acquire(lease, holder, termMs).catch((err: unknown) => {
      log.warn({ err }, 'could not ask for the projector lease; asking again');
      return undefined;
    });
    if (term) return keep(leases, options, term, sent + termMs, { renewMs, pollMs });
    if (term === null && !waiting) {
      waiting = true;
      const current = await leases.current(lease).catch(() => null);
      log.info(
        { lease, holder: current?.holder, expires_at: current && new Date(current.expiresAt).toISOString() },
        'another process holds the projector lease: waiting to take over',
      );
      options.onWaiting?.(current);
    }
    // Only when the store answered: a standby cut off from it is not waiting as it should.
    if (term === null) options.onPoll?.();
    await delay(pollMs, undefined, { signal });
  }
}

/** Renews the term every `renewMs`, and checks every `pollMs` that it has not run out meanwhile. */
function keep(
  leases: Leases,
  options: TenureOptions,
  term: LeaseTerm,
  firstDeadline: number,
  timing: { renewMs: number; pollMs: number },
): Tenure {
  const { lease, holder, log, now = Date.now } = options;
  const termMs = leaseTiming(options.ttlMs).termMs;
  let deadline = firstDeadline;
  let lastSent = now();
  let renewing = false;
  let held = true;
  const lose = (reason: string) => {
    if (!held) return;
    held = false;
    clearInterval(timer);
    options.onLost(reason);
  };
  const renew = async () => {
    const sent = now();
    lastSent = sent;
    renewing = true;
    try {
      const renewed = await leases.renew(lease, holder, term.token, termMs);
      if (!renewed) lose('another process took the projector lease');
      else deadline = sent + termMs;
    } catch (err) {
      log.warn({ err }, 'could not renew the projector lease; trying again');
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => {
    if (!held) return;
    if (now() >= deadline) lose('the projector lease ran out before a renewal got through');
    else if (!renewing && now() - lastSent >= timing.renewMs) void renew();
  }, timing.pollMs);
  timer.unref();
  log.info({ lease, holder, token: term.token }, 'holding the projector lease');
  return {
    fence: { lease, token: term.token },
    held: () => held,
    async release() {
      if (!held) return;
      held = false;
      clearInterval(timer);
      await leases.release(lease, holder, term.token);
    },
  };
}
