import { z } from 'zod';
import { HttpError } from './envelope';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** A `limit` query parameter: a whole number from 1 to `max`, `fallback` when omitted. */
export function limitParameter(max: number, fallback: number, items: string) {
  const rule = `limit must be a whole number from 1 to ${max}`;
  return z
    .string()
    .regex(/^[0-9]{1,6}$/, rule)
    .transform(Number)
    .pipe(z.int().min(1, rule).max(max, rule))
    .default(fallback)
    .meta({
      description: `At most this many ${items}, 1 to ${max}; ${fallback} when omitted`,
      // A whole number to a client generated from the contract; a query string carries it as digits.
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: max, default: fallback });
      },
    });
}

/** `limit` and `after`, the query of every paginated list. */
export const pageQuery = {
  limit: limitParameter(MAX_PAGE, DEFAULT_PAGE, 'items'),
  after: z
    .string()
    .min(1, 'after is empty: pass the next of the page before, or leave it out to start from the first')
    .max(512, 'after is at most 512 characters')
    .optional()
    .meta({ description: 'The next of the page before: the items after it; omitted, from the first' }),
};

/** Whether a query takes the `after` of a paged list, which refuses a cursor no page gave (invalid_cursor). */
export const isPaged = (query: z.ZodObject): boolean => query.shape.after === pageQuery.after;

/**
 * `limit` and `after` of the lists that answered whole before they were paged (the specification's
 * own among them): a client that names no limit still reads every item (docs/rules.md, "Lists").
 */
export const wholeListQuery = {
  limit: z
    .string()
    .regex(/^[0-9]{1,6}$/, `limit must be a whole number from 1 to ${MAX_PAGE}`)
    .transform(Number)
    .pipe(
      z
        .int()
        .min(1, `limit must be a whole number from 1 to ${MAX_PAGE}`)
        .max(MAX_PAGE, `limit must be a whole number from 1 to ${MAX_PAGE}`),
    )
    .optional()
    .meta({
      description: `At most this many items, 1 to ${MAX_PAGE}; every item when omitted`,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: 'integer', minimum: 1, maximum: MAX_PAGE });
      },
    }),
  after: pageQuery.after,
};

/** A page of a list: its items and the cursor of the page after it. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    list: z.array(item),
    next: z.string().nullable().meta({ description: 'Pass it as `after` for the next page; null on the last page' }),
  });

/**
 * A stable order for a list: each item's position as a number and a string (an id that never
 * changes), so a page boundary stays put while items are added or change status. A cursor is a
 * place in this order, not an item: it stays valid when the item it was cut at leaves the list.
 */
export type SortKey = readonly [number, string];

const cursorOf = ([n, s]: SortKey): string => (s === '' ? String(n) : `${n}:${s}`);

function parseCursor(after: string): SortKey {
  const match = /^([0-9]{1,15})(?::(.+))?$/.exec(after);
  if (!match)
    throw new HttpError(
      422,
      'invalid_cursor',
      'after is not the next of an earlier page: omit it to start from the first',
    );
  return [Number(match[1]), match[2] ?? ''];
}

const compare = (a: SortKey, b: SortKey): number => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

/**
 * The page of `items` after the cursor, in the order of their sort keys (`newestFirst`: the
 * reverse); every item after it when `limit` is omitted.
 */
export function paginate<T>(
  items: T[],
  keyOf: (item: T) => SortKey,
  page: { limit?: number; after?: string },
  { newestFirst = false } = {},
): { list: T[]; next: string | null } {
  const after = page.after === undefined ? null : parseCursor(page.after);
  const inOrder = newestFirst ? (a: SortKey, b: SortKey) => compare(b, a) : compare;
  const limit = page.limit ?? Infinity;
  const sorted = items
    .map((item) => ({ item, key: keyOf(item) }))
    .filter(({ key }) => after === null || inOrder(key, after) > 0)
    .sort((a, b) => inOrder(a.key, b.key));
  const shown = sorted.slice(0, limit);
  const last = shown[shown.length - 1];
  return { list: shown.map(({ item }) => item), next: sorted.length > limit && last ? cursorOf(last.key) : null };
}
