import { z } from 'zod';
import { endpoint, Endpoint, Reply } from './endpoints';
import { pageOf, paginate, SortKey, wholeListQuery } from './pagination';

interface PagedPartnerSpec<I extends z.ZodType> {
  path: string;
  scope: string;
  summary: string;
  description?: string;
  /** The schema of one item of the list. */
  item: I;
  /** Every item, in any order: the page is cut in the order of `keyOf`. */
  items(): z.input<I>[] | Promise<z.input<I>[]>;
  keyOf(item: z.input<I>): SortKey;
  /** As LaneAnswer's: changes whenever the whole list would. */
  version?(): unknown;
}

/**
 * A list of the open API, paged as every list is (`limit`, `after`, `next`): a call without a
 * query string, which the partner lane answers ahead of koa, reads the whole list, as the
 * specification's clients do; `limit` and `after` go to the router, which cuts the page.
 */
export function pagedPartnerEndpoint<I extends z.ZodType>({
  scope,
  item,
  items,
  keyOf,
  version,
  ...spec
}: PagedPartnerSpec<I>): Endpoint {
  const page = async (query: {
    limit?: number;
    after?: string;
  }): Promise<Reply<{ list: z.input<I>[]; next: string | null }>> => ({
    data: paginate(await items(), keyOf, query),
  });
  return endpoint({
    ...spec,
    method: 'GET',
    caller: { kind: 'partner', scope },
    query: z.object(wholeListQuery),
    response: pageOf(item),
    handler: (_ctx, { query }) => page(query),
    lane: { answer: () => page({}), version },
  });
}
