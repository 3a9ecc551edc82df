import { api, call, csrf, type Answer, type Schemas, type ScopeName } from '../api/client';
import { allKeys, decideInBulk, matchingQuery, type Decided } from './bulk-send';

type ScopeRequest = Schemas['ScopeRequest'];
type Decision = { decision: 'approve' } | { decision: 'reject'; reason: string };

/** A scope request's key in a selection: a member asks for each scope once. */
export const scopeKey = (r: Pick<ScopeRequest, 'member_id' | 'name'>) => `${r.member_id} ${r.name}`;

const fromKey = (key: string) => {
  const [member_id, scope] = key.split(' ');
  return { member_id: Number(member_id), scope: scope as ScopeName };
};

/** The keys of every scope request the filter and search find, over all pages. */
export function allMatchingScopeRequests(status: string, q: string): Promise<Answer<string[]>> {
  return allKeys(
    (page) => call(() => api.GET('/scope-requests', { params: { query: matchingQuery(status, q, page) } })),
    scopeKey,
  );
}

/**
 * A scope has no expiry of its own: it is granted to the member's credential and holds as long as
 * its key is accepted, so the notice says that rather than a date.
 */
const SCOPE_EXPIRY = " A scope has no expiry of its own: each holds while its member's key does.";

/**
 * One decision for many scope requests (POST /scope-requests/decisions): the notice names how many
 * were decided, the expiry that applies, and each refusal by scope and member.
 */
export async function decideScopeRequests(keys: string[], decision: Decision): Promise<Decided> {
  const items = keys.map((key) => ({ ...fromKey(key), ...decision }));
  return decideInBulk(
    items,
    decision.decision === 'approve',
    (some) =>
      call(async () =>
        api.POST('/scope-requests/decisions', { params: { header: await csrf() }, body: { items: some } }),
      ),
    { noun: 'scope request', nameOf: (r) => `${r.scope} for member #${r.member_id}`, approved: () => SCOPE_EXPIRY },
  );
}
