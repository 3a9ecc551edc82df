import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Done, Empty, Loading, RefusalNotice } from '../ui/notice';
import { ReasonAction } from '../ui/reason-action';

type Status = NonNullable<Schemas['CredentialApplication']['status']>;
const STATUSES: Status[] = ['pending', 'approved', 'rejected', 'active', 'revoked'];

export function CredentialQueue() {
  const [status, setStatus] = useState<Status | ''>('pending');
  const [list, reload] = useLoad(() => call(() => api.GET('/credentials', { params: { query: status ? { status } : {} } })), [status]);
  const [done, setDone] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const decided = (answer: { ok: true; message: string } | { ok: false; refusal: Refusal }): Refusal | null => {
    if (!answer.ok) return answer.refusal;
    setDone(answer.message);
    reload();
    return null;
  };
  const approve = async (member_id: number) => setRefusal(decided(await call(async () => api.POST('/credentials/{member_id}/approve', { params: { header: await csrf(), path: { member_id: String(member_id) } }, body: {} }))));
  const reject = async (member_id: number, reason: string) => decided(await call(async () => api.POST('/credentials/{member_id}/reject', { params: { header: await csrf(), path: { member_id: String(member_id) } }, body: { reason } })));
  const revoke = async (member_id: number, reason: string) => decided(await call(async () => api.POST('/credentials/{member_id}/revoke', { params: { header: await csrf(), path: { member_id: String(member_id) } }, body: { reason } })));

  return (
    <>
      <h1>Credential applications</h1>
      <div class="field inline">
        <label for="credential-status">Status</label>
        <select id="credential-status" value={status} onChange={(e) => setStatus((e.currentTarget as HTMLSelectElement).value as Status | '')}>
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
      {list.state === 'loading' && <Loading what="applications" />}
      {list.state === 'failed' && <RefusalNotice refusal={list.refusal} />}
      {list.state === 'ready' && list.data.list.length === 0 && <Empty>No {status || ''} application.</Empty>}
      {list.state === 'ready' && list.data.list.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Status</th>
              <th scope="col">Applied</th>
              <th scope="col">API id</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {list.data.list.map((a) => (
              <tr key={a.member_id}>
                <td>
                  {a.username} <small>#{a.member_id}</small>
                </td>
                <td>
                  <span class={`status ${a.status}`}>{a.status}</span>
                  {(a.reject_reason ?? a.revoke_reason) && <small> “{a.reject_reason ?? a.revoke_reason}”</small>}
                </td>
                <td>{when(a.applied_at)}</td>
                <td>{a.apiid ? <code>{a.apiid}</code> : '—'}</td>
                <td class="actions">
                  {a.status === 'pending' && (
                    <>
                      <button type="button" class="primary" onClick={() => approve(a.member_id)} aria-label={`Approve ${a.username}`}>
                        Approve
                      </button>
                      <ReasonAction id={`reject-${a.member_id}`} label="Reject" onSend={(reason) => reject(a.member_id, reason)} />
                    </>
                  )}
                  {a.status === 'active' && <ReasonAction id={`revoke-${a.member_id}`} label="Revoke" onSend={(reason) => revoke(a.member_id, reason)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
