import type { Logger } from 'pino';
import { decideCredential } from './commands';
import { credentialsProjection } from './projections/credentials';
import { CredentialDocument } from './views';
import { DocumentStore, EventStore } from '../stores/ports';
import { Ticker } from '../shared/ticker';

const DAY_MS = 86_400_000;

/** Who the log says noted an expiry: the clock, not a request. */
export const EXPIRY_WATCH_ACTOR = { kind: 'system', id: 'expiry' } as const;

/** The instants at which something about an expiry can become due: each reminder's threshold, and the expiry itself. */
function nextDueAfter(expiresAt: string, now: number, reminderDays: number[]): number | null {
  const expiry = Date.parse(expiresAt);
  const moments = [...reminderDays.map((days) => expiry - days * DAY_MS), expiry].filter((at) => at > now);
  return moments.length === 0 ? null : Math.min(...moments);
}

/**
 * How far each look back overlaps the previous one: a credential approved or extended just before
 * a moment it reaches may be stored in the read model a little after the watch looked there.
 */
const LATE_MS = 60_000;

/**
 * Tells the log, as time passes, that an active credential's key is about to expire (one reminder
 * per threshold of EXPIRY_REMINDER_DAYS reached) and that it expired. The decider decides what is
 * due and refuses nothing twice; this only asks it at the moments something can become due, so an
 * idle credential costs no stream read. Mail and webhooks follow the events from the log.
 *
 * It finds those moments by the indexed expiry (findInRange): something is due for a threshold of
 * d days once the expiry is at most d days away, so each check reads, per threshold, only the
 * credentials whose expiry crossed it since the last check (the first check, everything due by
 * then), however many credentials there are.
 */
export class ExpiryWatch {
  private readonly ticker: Ticker;
  /** Per member and expiry: when to ask the decider next (null: nothing more will be due). */
  private readonly nextAsk = new Map<string, number | null>();
  /** The instant the last complete check looked up to. */
  private checkedAt: number | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly reminderDays: number[],
    log: Logger,
    tickMs = 1000,
  ) {
    this.ticker = new Ticker(
      () => this.check(),
      tickMs,
      (err) => log.warn({ err }, 'could not note key expiries; trying again shortly'),
    );
  }

  start(): void {
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async check(): Promise<void> {
    const now = Date.now();
    for (const { doc } of await this.crossed(now)) {
      if (doc.status !== 'active' || doc.expires_at === null) continue;
      const key = `${doc.member_id}:${doc.expires_at}`;
      const ask = this.nextAsk.get(key);
      if (ask === null || (ask !== undefined && ask > now)) continue;
      const ctx = { actor: EXPIRY_WATCH_ACTOR, requestId: `expiry-${doc.member_id}-${now}`, now: new Date(now) };
      await decideCredential(
        this.events,
        {
          type: 'NoteExpiry',
          data: { member_id: doc.member_id, now: ctx.now.toISOString(), reminder_days: this.reminderDays },
        },
        ctx,
      );
      this.nextAsk.set(key, nextDueAfter(doc.expires_at, now, this.reminderDays));
    }
    this.checkedAt = now;
    // An expiry further back than any look reaches is never read again.
    for (const key of this.nextAsk.keys())
      if (Date.parse(key.slice(key.indexOf(':') + 1)) < now - LATE_MS) this.nextAsk.delete(key);
  }

  /** The credentials with an expiry that reached one of the thresholds since the last check, each once. */
  private async crossed(now: number): Promise<{ doc: CredentialDocument }[]> {
    const collection = credentialsProjection.collection.name;
    const thresholds = [0, ...this.reminderDays.map((days) => days * DAY_MS)];
    const iso = (at: number) => new Date(at).toISOString();
    const since = this.checkedAt;
    const ranges =
      since === null
        ? [{ field: 'expires_at', upTo: iso(now + Math.max(...thresholds)) }]
        : thresholds.map((ahead) => ({
            field: 'expires_at',
            after: iso(since - LATE_MS + ahead),
            upTo: iso(now + ahead),
          }));
    const found = (
      await Promise.all(ranges.map((range) => this.documents.findInRange<CredentialDocument>(collection, range)))
    ).flat();
    return [...new Map(found.map((stored) => [stored.id, stored])).values()];
  }
}
