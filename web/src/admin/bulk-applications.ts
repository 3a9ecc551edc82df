import { api, call, csrf, type Answer, type Refusal } from '../api/client';
import { everyPage, PAGE_LIMIT } from '../api/pages';
import { when } from '../ui/load';
import type { ApprovalBody } from './approve-expiry';

/** The most decisions one request takes (POST /credentials/decisions). */
const PER_REQUEST = 500;

type Decision = ({ decision: 'approve' } & ApprovalBody) | { decision: 'reject'; reason: string };
type Result = { member_id: number; ok: boolean; error?: string; message?: string; expires_at?: string | null };

/** The member ids of every application the filter and search find, over all pages. */
export async function allMatching(status: string, q: string): Promise<Answer<number[]>> {
  const answer = await everyPage((after) =>
    call(() =>
      api.GET('/credentials', {
        params: {
          query: { ...(q && { q }), ...(status && { status: status as 'pending' }), limit: PAGE_LIMIT, after },
        },
      }),
    ),
  );
  return answer.ok ? { ...answer, data: answer.data.list.map((a) => a.member_id) } : answer;
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
 * One decision for many applications, in as few requests as the service allows (500 each): the
 * notice names how many were decided, the expiry the approvals applied, and each refusal by member.
 */
export async function decideApplications(
  ids: number[],
  decision: Decision,
): Promise<{ ok: true; message: string } | { ok: false; refusal: Refusal }> {
  const results: Result[] = [];
  for (let i = 0; i < ids.length; i += PER_REQUEST) {
    const items = ids.slice(i, i + PER_REQUEST).map((member_id) => ({ member_id, ...decision }));
    const answer = await call(async () =>
      api.POST('/credentials/decisions', { params: { header: await csrf() }, body: { items } }),
    );
    if (!answer.ok) return answer;
    results.push(...answer.data.results);
  }
  const refused = results.filter((r) => !r.ok);
  const passed = results.length - refused.length;
  const verb = decision.decision === 'approve' ? 'Approved' : 'Rejected';
  const noun = `application${passed === 1 ? '' : 's'}`;
  return {
    ok: true,
    message:
      `${verb} ${passed} ${noun}.` +
      (decision.decision === 'approve' ? expiryWords(results) : '') +
      (refused.length
        ? ` Refused ${refused.length}: ${refused.map((r) => `#${r.member_id} ${r.message ?? r.error ?? ''}`).join('; ')}.`
        : ''),
  };
}
