import { api, call, csrf, type Answer } from '../api/client';
import { when } from '../ui/load';
import type { ApprovalBody } from './approve-expiry';
import { allKeys, decideInBulk, matchingQuery, type Decided, type ItemResult } from './bulk-send';

type Decision = ({ decision: 'approve' } & ApprovalBody) | { decision: 'reject'; reason: string };
type Result = ItemResult & { expires_at?: string | null };

/** The member ids of every application the filter and search find, over all pages. */
export function allMatching(status: string, q: string): Promise<Answer<string[]>> {
  return allKeys(
    (page) => call(() => api.GET('/credentials', { params: { query: matchingQuery(status, q, page) } })),
    (a) => String(a.member_id),
  );
}

/** What the notice says of the expiry the approvals applied: the one date, or each kind. */
function expiryWords(results: Result[]): string {
  const applied = [...new Set(results.filter((r) => r.ok).map((r) => r.expires_at ?? null))];
  if (applied.length === 0) return '';
  const days = new Set(applied.map((at) => (at ? when(at) : 'never')));
  if (days.size === 1) {
    const [day] = days;
    return day === 'never' ? ' Their keys never expire.' : ` Their keys expire on ${day}.`;
  }
  return ` Their keys expire between ${[...days].sort()[0]} and ${[...days].sort().at(-1)}.`;
}

/**
 * One decision for many applications (POST /credentials/decisions): the notice names how many were
 * decided, the expiry the approvals applied, and each refusal by member.
 */
export async function decideApplications(ids: number[], decision: Decision): Promise<Decided> {
  const items = ids.map((member_id) => ({ member_id, ...decision }));
  return decideInBulk(
    items,
    decision.decision === 'approve',
    (some) =>
      call(async () => api.POST('/credentials/decisions', { params: { header: await csrf() }, body: { items: some } })),
    { noun: 'application', nameOf: (r) => `#${r.member_id}`, approved: expiryWords },
  );
}
