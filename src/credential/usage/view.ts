import { z } from 'zod';
import { keyFingerprint } from '../api-key';
import { AcceptedKey } from '../grace-period';
import { applicationSchema } from '../views';

/**
 * A key's use over the last days, as the dashboard and the review show it. Pure: the counts come
 * from the usage ledger, which only stores and loads them.
 */
export const USAGE_DAYS = 30;

const DAY_MS = 86_400_000;

export const usageSchema = z
  .object({
    last_used_at: z.iso.datetime().nullable().meta({
      description:
        "The last open-API call with this credential's key, accepted or refused; null: never. Calls with a wrong key do not set it",
    }),
    days: z
      .array(
        z.object({
          date: z.iso.date(),
          calls: z.int().min(0).meta({
            description: "Open-API calls made with the credential's key that day (UTC), refused ones included",
          }),
          refused: z.int().min(0).meta({ description: 'Those of the calls answered with an error' }),
          wrong_key: z.int().min(0).meta({
            description:
              'Calls that named this API id with a well-formed key that did not match, all refused: counted apart and never in calls, since anyone who knows the API id can make them',
          }),
        }),
      )
      .meta({ description: `The last ${USAGE_DAYS} days, oldest first, today last` }),
    keys: z
      .array(
        z.object({
          key: z.string().meta({
            description: "The key's fingerprint: the first 8 hex digits of its SHA-256 digest, never the key",
          }),
          state: z.enum(['current', 'in_grace', 'stopped']).meta({
            description:
              'current: the key the last claim or rotation issued; in_grace: rotated away and still accepted until valid_until; stopped: no longer accepted',
          }),
          valid_until: z.iso
            .datetime()
            .nullable()
            .meta({ description: 'When a key in grace stops being accepted; null for the others' }),
          calls: z
            .int()
            .min(0)
            .meta({ description: `Calls made with this key over the last ${USAGE_DAYS} days, refused ones included` }),
          refused: z.int().min(0),
          last_used_at: z.iso.datetime().nullable(),
        }),
      )
      .meta({
        description: `Each key accepted now or called in the last ${USAGE_DAYS} days: the current key first, then the others, latest used first. Calls counted before keys were told apart are in days only`,
      }),
  })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof usageSchema>;

/** One member's counts of one day, as one instance counted them. */
export interface DayCount {
  member_id: number;
  date: string;
  calls: number;
  refused: number;
  /** Absent in counts stored before wrong keys were counted apart. */
  wrong_key?: number;
  /** Null when the day saw only wrong keys. */
  last_used_at: string | null;
  /** The calls by key fingerprint; absent in counts stored before keys were told apart. */
  by_key?: Record<string, { calls: number; refused: number; last_used_at: string | null }>;
}

type KeyUse = Usage['keys'][number];

/** What the credential's keys did in the window: those in its ring now, and any other key called in it. */
function keysOf(counts: DayCount[], dates: Set<string>, ring: AcceptedKey[]): KeyUse[] {
  const keys = new Map<string, KeyUse>(
    ring.map((k) => [
      keyFingerprint(k.digest),
      {
        key: keyFingerprint(k.digest),
        state: k.valid_until === null ? 'current' : 'in_grace',
        valid_until: k.valid_until,
        calls: 0,
        refused: 0,
        last_used_at: null,
      },
    ]),
  );
  for (const count of counts) {
    if (!dates.has(count.date)) continue;
    for (const [key, c] of Object.entries(count.by_key ?? {})) {
      let use = keys.get(key);
      if (!use)
        keys.set(key, (use = { key, state: 'stopped', valid_until: null, calls: 0, refused: 0, last_used_at: null }));
      use.calls += c.calls;
      use.refused += c.refused;
      if (c.last_used_at !== null && (use.last_used_at === null || c.last_used_at > use.last_used_at))
        use.last_used_at = c.last_used_at;
    }
  }
  const rank = (k: KeyUse) => (k.state === 'current' ? 0 : 1);
  return [...keys.values()].sort(
    (a, b) => rank(a) - rank(b) || (b.last_used_at ?? '').localeCompare(a.last_used_at ?? ''),
  );
}

/** The UTC date of an instant (epoch milliseconds), as YYYY-MM-DD. */
export const utcDate = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The usage view of the counts (every instance's, any days), for the 30 days ending on `now`'s date, split by the keys of `ring` and any other called. */
export function usageOf(counts: DayCount[], ring: AcceptedKey[], now: number): Usage {
  const dates = Array.from({ length: USAGE_DAYS }, (_, i) => utcDate(now - (USAGE_DAYS - 1 - i) * DAY_MS));
  const byDate = new Map(dates.map((date) => [date, { date, calls: 0, refused: 0, wrong_key: 0 }]));
  let last: string | null = null;
  for (const count of counts) {
    if (count.last_used_at !== null && (last === null || count.last_used_at > last)) last = count.last_used_at;
    const day = byDate.get(count.date);
    if (!day) continue;
    day.calls += count.calls;
    day.refused += count.refused;
    day.wrong_key += count.wrong_key ?? 0;
  }
  return { last_used_at: last, days: [...byDate.values()], keys: keysOf(counts, new Set(dates), ring) };
}

/** An application in the review list: with when its credential was last used. */
export const reviewedApplicationSchema = applicationSchema
  .extend({ last_used_at: usageSchema.shape.last_used_at })
  .meta({ id: 'ReviewedApplication' });
