import { scopeRequestStatusValues } from '../../generated/contract';
import { api, call, csrf, type Schemas, type ScopeName } from '../api/client';
import { mayReviewScope, mayRevokeScope } from '../api/credential-rules';
import { useLoad, when } from '../ui/load';
import { ReasonAction } from '../ui/reason-action';
import { allMatchingScopeRequests, decideScopeRequests, scopeKey } from './bulk-scopes';
import { clearedOnDecision, useBulkReview } from './bulk-review';
import { PAGE_SIZE, useQueueAddress, withAll } from './queue-address';
import { DecisionCell, Queue, saying, useDecisions } from './queue';

type ScopeRequest = Schemas['ScopeRequest'];
type Status = ScopeRequest['status'];

/** The filter as the address names it: "all", a status, or nothing for the pending ones a reviewer comes for. */
function filterOf(named: string | null): Status | '' {
  if (named === 'all') return '';
  return scopeRequestStatusValues.find((s) => s === named) ?? 'pending';
}

const whose = (r: ScopeRequest) => r.username ?? `member ${r.member_id}`;

export function ScopeQueue() {
  const { status, q, after, listKey, selected, toggle, select, controls, pager } = useQueueAddress(filterOf);
  const [list, reload] = useLoad(
    () =>
      call(() =>
        api.GET('/scope-requests', {
          params: { query: { ...(status && { status }), ...(q && { q }), limit: PAGE_SIZE, ...(after && { after }) } },
        }),
      ),
    [status, q, after],
  );
  const { done, refusal, decided, decide, decidedSaying } = useDecisions(reload, listKey);
  const scopeOf = async (r: ScopeRequest) => ({
    header: await csrf(),
    path: { member_id: r.member_id, scope: r.name as ScopeName },
  });
  const sendApproval = (r: ScopeRequest) =>
    call(async () =>
      api.POST('/credentials/{member_id}/scopes/{scope}/approve', { params: await scopeOf(r), body: {} }),
    );
  const sendRejection = (r: ScopeRequest, reason: string) =>
    call(async () =>
      api.POST('/credentials/{member_id}/scopes/{scope}/reject', { params: await scopeOf(r), body: { reason } }),
    );
  const approve = (r: ScopeRequest) =>
    decide(sendApproval(r).then((answer) => saying(answer, () => `Approved ${r.name} for ${whose(r)}.`)));
  const reject = (r: ScopeRequest, reason: string) =>
    decidedSaying(sendRejection(r, reason), () => `Rejected ${r.name} for ${whose(r)}.`, reason);
  const revoke = (r: ScopeRequest, reason: string) =>
    decidedSaying(
      call(async () =>
        api.POST('/credentials/{member_id}/scopes/{scope}/revoke', { params: await scopeOf(r), body: { reason } }),
      ),
      () => `Revoked ${r.name} for ${whose(r)}: calls that need it are refused from now on.`,
      reason,
    );

  const rows = list.state === 'ready' ? list.data.list : [];
  const counts = withAll(list.state === 'ready' ? list.data.counts : undefined);
  const chosen = [...selected];
  const settled = clearedOnDecision(select);
  const bulk = useBulkReview({
    rows,
    keyOf: scopeKey,
    nameOf: (r) => `${r.name} for ${whose(r)}`,
    noun: 'scope request',
    total: counts ? counts[status] : null,
    selected,
    toggle,
    select,
    loadAll: () => allMatchingScopeRequests(status, q),
    approve: (subject) => (
      <button
        type="button"
        class="primary"
        onClick={() => void decide(decideScopeRequests(chosen, { decision: 'approve' }).then(settled))}
        aria-label={`Approve ${subject}`}
      >
        Approve
      </button>
    ),
    onReject: async (reason) =>
      decided(settled(await decideScopeRequests(chosen, { decision: 'reject', reason })), reason),
  });
  const withSelect = status === 'pending';

  return (
    <Queue
      title="Scope requests"
      id="scope-status"
      noun="scope request"
      statuses={scopeRequestStatusValues}
      {...controls}
      counts={counts}
      selection={withSelect && bulk.selection}
      pages={list.state === 'ready' && pager(rows.length, counts ? counts[status] : null, list.data.next)}
      list={list}
      bodyRef={bulk.bodyRef}
      compact
      onRetry={reload}
      columns={[...(withSelect ? ['Select'] : []), 'Member', 'Scope', 'Reason', 'Status', 'Decision']}
      done={done}
      refusal={refusal}
    >
      {() =>
        rows.map((r, i) => {
          const subject = `${r.name} for ${whose(r)}`;
          return (
            <tr key={scopeKey(r)} {...bulk.rowProps(i)}>
              {withSelect && bulk.selectCell(r)}
              <td data-label="Member">
                {r.username ?? 'member'} <small>#{r.member_id}</small>
              </td>
              <td data-label="Scope">
                <code class="scope">{r.name}</code>
              </td>
              <td data-label="Reason" class="reason" title={r.reason}>
                {r.reason} <small>({when(r.requested_at)})</small>
              </td>
              <td data-label="Status">
                <span class={`status ${r.status}`}>{r.status}</span>
                {(r.reject_reason ?? r.revoke_reason) && <small> “{r.reject_reason ?? r.revoke_reason}”</small>}
              </td>
              <DecisionCell>
                {mayReviewScope(r.status) && (
                  <>
                    <button type="button" class="primary" onClick={() => approve(r)} aria-label={`Approve ${subject}`}>
                      Approve
                    </button>
                    <ReasonAction
                      id={`reject-${r.member_id}-${r.name}`}
                      label="Reject"
                      subject={subject}
                      onSend={(reason) => reject(r, reason)}
                    />
                  </>
                )}
                {mayRevokeScope(r.status) && (
                  <ReasonAction
                    id={`revoke-${r.member_id}-${r.name}`}
                    label="Revoke"
                    subject={subject}
                    onSend={(reason) => revoke(r, reason)}
                  />
                )}
              </DecisionCell>
            </tr>
          );
        })
      }
    </Queue>
  );
}
