import { useState } from 'preact/hooks';
import { scopeRequestStatusValues } from '../../generated/contract';
import { api, call, csrf, type Schemas, type ScopeName } from '../api/client';
import { mayReviewScope, mayRevokeScope } from '../api/credential-rules';
import { everyPage, PAGE_LIMIT } from '../api/pages';
import { useLoad, when } from '../ui/load';
import { ReasonAction } from '../ui/reason-action';
import { DecisionCell, Queue, saying, useDecisions } from './queue';

type Status = Schemas['ScopeRequest']['status'];

export function ScopeQueue() {
  const [status, setStatus] = useState<Status | ''>('pending');
  const [list, reload] = useLoad(
    () => everyPage((after) => call(() => api.GET('/scope-requests', { params: { query: { ...(status && { status }), limit: PAGE_LIMIT, after } } }))),
    [status],
  );
  const { done, refusal, decided, decide } = useDecisions(reload, status);
  const scopeOf = async (member_id: number, scope: string) => ({ header: await csrf(), path: { member_id, scope: scope as ScopeName } });
  const approve = (id: number, scope: string) =>
    decide(call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/approve', { params: await scopeOf(id, scope), body: {} })).then((answer) => saying(answer, (r) => `Approved ${scope} for ${r.username ?? `member ${id}`}.`)));
  const reject = async (id: number, scope: string, reason: string) =>
    decided(saying(await call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/reject', { params: await scopeOf(id, scope), body: { reason } })), (r) => `Rejected ${scope} for ${r.username ?? `member ${id}`}.`));
  const revoke = async (id: number, scope: string, reason: string) =>
    decided(saying(await call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/revoke', { params: await scopeOf(id, scope), body: { reason } })), (r) => `Revoked ${scope} for ${r.username ?? `member ${id}`}: calls that need it are refused from now on.`));

  return (
    <Queue
      title="Scope requests"
      id="scope-status"
      noun="scope request"
      statuses={scopeRequestStatusValues}
      status={status}
      onStatus={setStatus}
      list={list}
      onRetry={reload}
      columns={['Member', 'Scope', 'Reason', 'Status', 'Decision']}
      done={done}
      refusal={refusal}
    >
      {() =>
        list.state === 'ready' &&
        list.data.list.map((r) => {
          const subject = `${r.name} for ${r.username ?? `member ${r.member_id}`}`;
          return (
            <tr key={`${r.member_id}-${r.name}`}>
              <td data-label="Member">
                {r.username ?? 'member'} <small>#{r.member_id}</small>
              </td>
              <td data-label="Scope">
                <code class="scope">{r.name}</code>
              </td>
              <td data-label="Reason">
                {r.reason} <small>({when(r.requested_at)})</small>
              </td>
              <td data-label="Status">
                <span class={`status ${r.status}`}>{r.status}</span>
                {(r.reject_reason ?? r.revoke_reason) && <small> “{r.reject_reason ?? r.revoke_reason}”</small>}
              </td>
              <DecisionCell>
                {mayReviewScope(r.status) && (
                  <>
                    <button type="button" class="primary" onClick={() => approve(r.member_id, r.name)} aria-label={`Approve ${subject}`}>
                      Approve
                    </button>
                    <ReasonAction id={`reject-${r.member_id}-${r.name}`} label="Reject" subject={subject} onSend={(reason) => reject(r.member_id, r.name, reason)} />
                  </>
                )}
                {mayRevokeScope(r.status) && <ReasonAction id={`revoke-${r.member_id}-${r.name}`} label="Revoke" subject={subject} onSend={(reason) => revoke(r.member_id, r.name, reason)} />}
              </DecisionCell>
            </tr>
          );
        })
      }
    </Queue>
  );
}
