import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { DocumentStore } from '../../stores/ports';
import { stamp } from '../../shared/projections/stamp';
import { Ticker } from '../../shared/ticker';
import { AcceptedKey } from '../grace-period';
import { DayCount, usageOf, Usage, utcDate } from './view';
import { CallMade, RecentCall, RecentCalls } from './recent-calls';

/** Counts kept this long in memory after their day, so a flush late after midnight still has them. */
const DAY_MS = 86_400_000;
const KEEP_DAYS_MS = 2 * DAY_MS;
export const USAGE_COLLECTION = { name: 'key_usage', indexes: ['member_id'] };

/**
 * Open-API calls per credential and day, counted in memory on the partner path (no store call
 * per request, never an event) and written to the store at most once per `flushMs`.
 *
 * Each process writes documents of its own (its instance id in the document id) holding its
 * totals as absolute values: no two instances write the same document, so no increment is lost
 * without the stores needing an atomic add; a read sums them. A restart starts a new instance id,
 * and what the old one flushed stays and still counts.
 */
export class UsageLedger {
  private readonly instance = randomUUID();
  // The partner path formats no date: last use is kept as a number, and the day's name is
  // worked out once a day; both become a DayCount only when written or read.
  private readonly counts = new Map<string, Tally>();
  /** The current day's counts by member, so that a call builds no document id. */
  private readonly today = new Map<number, Tally>();
  private day = { start: 0, end: 0, date: '' };
  private readonly dirty = new Set<string>();
  // The counts stay dirty in memory after a failed write and go with the next flush.
  private readonly ticker: Ticker;

  /** Each credential's last calls (RECENT_CALLS=on), in memory only; null when off. */
  private readonly recent: RecentCalls | null;

  constructor(
    private readonly documents: DocumentStore,
    log: Logger,
    flushMs = 1000,
    recentCalls = true,
  ) {
    this.recent = recentCalls ? new RecentCalls() : null;
    this.ticker = new Ticker(
      () => this.write(),
      flushMs,
      (err) => log.warn({ err }, 'could not write the key usage counts; trying again with the next flush'),
    );
  }

  async start(): Promise<void> {
    await this.documents.ensureCollections([USAGE_COLLECTION]);
    this.ticker.start();
  }

  /** One call with the credential of this member, made with the key of this fingerprint; memory only. */
  record(memberId: number, refused: boolean, key: string, at = Date.now()): void {
    const count = this.tally(memberId, at);
    count.calls += 1;
    if (refused) count.refused += 1;
    count.last_used_ms = at;
    let byKey = count.keys.get(key);
    if (!byKey) count.keys.set(key, (byKey = { calls: 0, refused: 0, last_used_ms: 0 }));
    byKey.calls += 1;
    if (refused) byKey.refused += 1;
    byKey.last_used_ms = at;
    this.dirty.add(count.id);
  }

  /** One answered call of the member's credential, among its recent calls (`key` null: the key did not match). */
  recordCall(memberId: number, status: number, key: string | null, call: CallMade): void {
    this.recent?.record(memberId, status, key, call);
  }

  /** The member's credential's last calls served by this process, newest first (none when RECENT_CALLS is off). */
  recentCalls(memberId: number): RecentCall[] {
    return this.recent?.of(memberId) ?? [];
  }

  /** One call that named this member's API id with a key that did not match: apart, and no use. */
  recordWrongKey(memberId: number, at = Date.now()): void {
    const count = this.tally(memberId, at);
    count.wrong_key += 1;
    this.dirty.add(count.id);
  }

  private tally(memberId: number, at: number): Tally {
    if (at < this.day.start || at >= this.day.end) this.startDay(at);
    let count = this.today.get(memberId);
    if (!count) {
      const id = `${memberId}:${this.day.date}:${this.instance}`;
      count = this.counts.get(id) ?? {
        id,
        member_id: memberId,
        date: this.day.date,
        calls: 0,
        refused: 0,
        wrong_key: 0,
        last_used_ms: 0,
        keys: new Map(),
      };
      this.counts.set(id, count);
      this.today.set(memberId, count);
    }
    return count;
  }

  private startDay(at: number): void {
    const start = at - (at % DAY_MS);
    this.day = { start, end: start + DAY_MS, date: utcDate(at) };
    this.today.clear();
  }

  private async write(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ids = [...this.dirty];
    this.dirty.clear();
    // A position per flush, increasing within this instance: the store keeps the latest totals.
    const position = stamp();
    try {
      await this.documents.write(
        ids.map((id) => ({
          collection: USAGE_COLLECTION.name,
          id,
          doc: { ...dayCount(this.counts.get(id)!) },
          position,
        })),
      );
    } catch (err) {
      for (const id of ids) this.dirty.add(id);
      throw err;
    }
    const old = Date.now() - KEEP_DAYS_MS;
    for (const [id, count] of this.counts)
      if (!this.dirty.has(id) && Date.parse(count.date) < old) this.counts.delete(id);
  }

  /**
   * A member's use: what every instance stored, with this instance's own counts taken from memory,
   * up to date; split by key, `ring` being the keys the credential has now (api_keys).
   */
  async usage(memberId: number, ring: AcceptedKey[], now = Date.now()): Promise<Usage> {
    const stored = await this.documents.find<DayCount>(USAGE_COLLECTION.name, { member_id: memberId });
    const mine = `:${this.instance}`;
    const others = stored.filter((d) => !d.id.endsWith(mine)).map((d) => d.doc);
    const own = [...this.counts.values()].filter((c) => c.member_id === memberId).map(dayCount);
    return usageOf([...others, ...own], ring, now);
  }

  /** When each member's credential was last used, over every instance. */
  async lastUsed(): Promise<Map<number, string>> {
    const stored = await this.documents.find<DayCount>(USAGE_COLLECTION.name, {});
    const mine = `:${this.instance}`;
    const all = [
      ...stored.filter((d) => !d.id.endsWith(mine)).map((d) => d.doc),
      ...[...this.counts.values()].map(dayCount),
    ];
    const last = new Map<number, string>();
    for (const c of all)
      if (c.last_used_at !== null && (last.get(c.member_id) ?? '') < c.last_used_at)
        last.set(c.member_id, c.last_used_at);
    return last;
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    await this.ticker.stop();
    await this.ticker.tick();
  }
}

/** A day's count as this process keeps it between flushes. */
interface Tally {
  id: string;
  member_id: number;
  date: string;
  calls: number;
  refused: number;
  wrong_key: number;
  /** 0: no call with the right key yet that day. */
  last_used_ms: number;
  /** The same counts by the fingerprint of the key each call was made with. */
  keys: Map<string, { calls: number; refused: number; last_used_ms: number }>;
}

const instantOf = (ms: number): string | null => (ms === 0 ? null : new Date(ms).toISOString());

const dayCount = ({ id: _id, last_used_ms, keys, ...count }: Tally): DayCount => ({
  ...count,
  last_used_at: instantOf(last_used_ms),
  by_key: Object.fromEntries(
    [...keys].map(([key, c]) => [key, { calls: c.calls, refused: c.refused, last_used_at: instantOf(c.last_used_ms) }]),
  ),
});
