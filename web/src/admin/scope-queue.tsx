import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas, type ScopeName } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Done, Empty, Loading, RefusalNotice } from '../ui/notice';
import { ReasonAction } from '../ui/reason-action';

type Status = Schemas['ScopeRequest']['status'];
const STATUSES: Status[] = ['pending', 'approved', 'rejected', 'revoked'];

export function ScopeQueue() {
  const [status, setStatus] = useState<Status | ''>('pending');
  const [list, reload] = useLoad(() => call(() => api.GET('/scope-requests', { params: { query: status ? { status } : {} } })), [status]);
  const [done, setDone] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const decided = (answer: { ok: true; message: string } | { ok: false; refusal: Refusal }): Refusal | null => {
    if (!answer.ok) return answer.refusal;
    setDone(answer.message);
    reload();
    return null;
  };
  const path = (member_id: number, scope: string) => ({ path: { member_id: String(member_id), scope: scope as ScopeName } });
  const approve = async (member_id: number, scope: string) =>
    setRefusal(decided(await call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/approve', { params: { header: await csrf(), ...path(member_id, scope) }, body: {} }))));
  const reject = async (member_id: number, scope: string, reason: string) =>
    decided(await call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/reject', { params: { header: await csrf(), ...path(member_id, scope) }, body: { reason } })));
  const revoke = async (member_id: number, scope: string, reason: string) =>
    decided(await call(async () => api.POST('/credentials/{member_id}/scopes/{scope}/revoke', { params: { header: await csrf(), ...path(member_id, scope) }, body: { reason } })));

  return (
    <>
      <h1>Scope requests</h1>
      <div class="field inline">
        <label for="scope-status">Status</label>
        <select id="scope-status" value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value as Status | '')}>
          <option value="">all</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <Done>{done}</Done>
      <RefusalNotice refusal={refusal} />
      {list.state === 'loading' && <Loading what="scope requests" />}
      {list.state === 'failed' && <RefusalNotice refusal={list.refusal} />}
      {list.state === 'ready' && list.data.list.length === 0 && <Empty>No {status || ''} scope request.</Empty>}
      {list.state === 'ready' && list.data.list.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Scope</th>
              <th scope="col">Reason</th>
              <th scope="col">Status</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {list.data.list.map((r) => (
              <tr key={`${r.member_id}-${r.scope}`}>
                <td>#{r.member_id}</td>
                <td>
                  <code>{r.scope}</code>
                </td>
                <td>
                  {r.reason} <small>({when(r.requested_at)})</small>
                </td>
                <td>
                  <span class={`status ${r.status}`}>{r.status}</span>
                  {(r.reject_reason ?? r.revoke_reason) && <small> “{r.reject_reason ?? r.revoke_reason}”</small>}
                </td>
                <td class="actions">
                  {r.status === 'pending' && (
                    <>
                      <button type="button" class="primary" onClick={() => approve(r.member_id, r.scope)} aria-label={`Approve ${r.scope} for member ${r.member_id}`}>
                        Approve
                      </button>
                      <ReasonAction id={`reject-${r.member_id}-${r.scope}`} label="Reject" onSend={(reason) => reject(r.member_id, r.scope, reason)} />
                    </>
                  )}
                  {r.status === 'approved' && <ReasonAction id={`revoke-${r.member_id}-${r.scope}`} label="Revoke" onSend={(reason) => revoke(r.member_id, r.scope, reason)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
