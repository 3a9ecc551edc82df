import type { Answer, Refusal } from '../api/client';
import { everyPage, PAGE_LIMIT, type Page } from '../api/pages';

/** The most decisions one request takes (POST /credentials/decisions, /scope-requests/decisions). */
const PER_REQUEST = 500;

/** One item's outcome, as both bulk endpoints answer it in `data.results`. */
export interface ItemResult {
  member_id: number;
  ok: boolean;
  error?: string;
  message?: string;
}

export type Decided = { ok: true; message: string } | { ok: false; refusal: Refusal };

/**
 * Many decisions in as few requests as the service allows (500 each), their results in the items'
 * order. A refused request (a reason the service refuses) is the answer: it was refused for all.
 */
async function sendInBulk<I, R extends ItemResult>(
  items: I[],
  send: (items: I[]) => Promise<Answer<{ results: R[] }>>,
): Promise<Answer<R[]>> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += PER_REQUEST) {
    const answer = await send(items.slice(i, i + PER_REQUEST));
    if (!answer.ok) return answer;
    results.push(...answer.data.results);
  }
  return { ok: true, data: results, message: '' };
}

interface Words<R> {
  /** "application", "scope request". */
  noun: string;
  /** How the notice names a refused item: "#12", "addons.read for member #12". */
  nameOf: (result: R) => string;
  /** Said after the count of approvals: the expiry they applied. */
  approved: (results: R[]) => string;
}

/** The notice of decisions in bulk: how many were decided, what approvals applied, and each refusal by name. */
function bulkNotice<R extends ItemResult>(
  results: R[],
  approve: boolean,
  { noun, nameOf, approved }: Words<R>,
): string {
  const verb = approve ? 'Approved' : 'Rejected';
  const after = approve ? approved(results) : '';
  const refused = results.filter((r) => !r.ok);
  const passed = results.length - refused.length;
  const refusals = refused.map((r) => `${nameOf(r)} ${r.message ?? r.error ?? ''}`);
  return (
    `${verb} ${passed} ${noun}${passed === 1 ? '' : 's'}.${after}` +
    (refused.length ? ` Refused ${refused.length}: ${refusals.join('; ')}.` : '')
  );
}

/**
 * One decision for many items, sent in bulk (`send` posts a batch): its notice names how many were
 * decided, what the approvals applied, and each refusal by name.
 */
export async function decideInBulk<I, R extends ItemResult>(
  items: I[],
  approve: boolean,
  send: (items: I[]) => Promise<Answer<{ results: R[] }>>,
  words: Words<R>,
): Promise<Decided> {
  const answer = await sendInBulk(items, send);
  return answer.ok ? { ok: true, message: bulkNotice(answer.data, approve, words) } : answer;
}

/** A queue's list query: its status filter and search, where given, and the page asked for. */
export const matchingQuery = (status: string, q: string, page: { limit: number; after: string | undefined }) => ({
  ...(q && { q }),
  ...(status && { status: status as 'pending' }),
  ...page,
});

/** The keys of every row the filter and search find, over all pages (the largest pages the service gives). */
export async function allKeys<Item>(
  page: (query: { limit: number; after: string | undefined }) => Promise<Answer<Page<Item>>>,
  keyOf: (item: Item) => string,
): Promise<Answer<string[]>> {
  const answer = await everyPage<Item>((after) => page({ limit: PAGE_LIMIT, after }));
  return answer.ok ? { ...answer, data: answer.data.list.map(keyOf) } : answer;
}
