import { useState } from 'preact/hooks';
import { api, call, csrf, type Schemas } from '../api/client';
import { everyPage, PAGE_LIMIT } from '../api/pages';
import { hasKey, statusOf } from '../ui/expiry';
import { useLoad, when } from '../ui/load';
import { ReasonAction } from '../ui/reason-action';
import { ApproveWithExpiry, type ApprovalBody } from './approve-expiry';
import { DecisionCell, Queue, useDecisions } from './queue';

type Application = Schemas['ReviewedApplication'];
type Status = Application['status'];

/**
 * The statuses, and the active credentials whose member asks for a later expiry: a decision that
 * waits as a pending application does, though no status names it. Next to "pending", where a
 * reviewer looks for what waits.
 */
type Filter = Status | 'extension';
const FILTERS: Filter[] = ['pending', 'extension', 'approved', 'rejected', 'active', 'revoked'];
const LABELS = { extension: 'extension requested' };

/** An extension request an administrator may decide: only an active credential's is (a revocation leaves the last one as it was). */
const extensionWaits = (a: Application): a is Application & { extension: Schemas['ExtensionRequest'] } => a.status === 'active' && a.extension?.status === 'pending';

/** The applications the filter names. The service filters by status; extension requests are the active ones that carry one. */
async function applications(filter: Filter | '') {
  const status = filter === 'extension' ? 'active' : filter;
  const answer = await everyPage((after) => call(() => api.GET('/credentials', { params: { query: { ...(status && { status }), limit: PAGE_LIMIT, after } } })));
  if (!answer.ok || filter !== 'extension') return answer;
  return { ...answer, data: { ...answer.data, list: answer.data.list.filter(extensionWaits) } };
}

export function CredentialQueue() {
  const [status, setStatus] = useState<Filter | ''>('pending');
  const [list, reload] = useLoad(() => applications(status), [status]);
  const { done, refusal, decided, decide } = useDecisions(reload, status);
  const member = async (member_id: number) => ({ header: await csrf(), path: { member_id } });
  const approve = (a: Application, body: ApprovalBody) =>
    decide(
      call(async () => api.POST('/credentials/{member_id}/approve', { params: await member(a.member_id), body })).then((answer) =>
        answer.ok ? { ...answer, message: approved(a.username, answer.data.expires_at) } : answer,
      ),
    );
  const reject = async (id: number, reason: string) => decided(await call(async () => api.POST('/credentials/{member_id}/reject', { params: await member(id), body: { reason } })));
  const revoke = async (id: number, reason: string) => decided(await call(async () => api.POST('/credentials/{member_id}/revoke', { params: await member(id), body: { reason } })));
  const approveExtension = (id: number) => decide(call(async () => api.POST('/credentials/{member_id}/extension/approve', { params: await member(id), body: {} })));
  const rejectExtension = async (id: number, reason: string) =>
    decided(await call(async () => api.POST('/credentials/{member_id}/extension/reject', { params: await member(id), body: { reason } })));

  return (
    <Queue
      title="Credential applications"
      id="credential-status"
      noun="application"
      statuses={FILTERS}
      labels={LABELS}
      empty={status === 'extension' ? 'No extension request waits.' : undefined}
      status={status}
      onStatus={setStatus}
      list={list}
      onRetry={reload}
      columns={['Member', 'Status', 'Applied', 'API id', 'Expires', 'Last used', 'Decision']}
      done={done}
      refusal={refusal}
    >
      {() =>
        list.state === 'ready' &&
        list.data.list.map((a) => (
          <tr key={a.member_id}>
            <td data-label="Member">
              {a.username} <small>#{a.member_id}</small>
            </td>
            <StatusCell application={a} />
            <td data-label="Applied">{when(a.applied_at)}</td>
            <td data-label="API id">{a.apiid ? <code class="apiid">{a.apiid}</code> : '—'}</td>
            <ExpiresCell application={a} />
            <td data-label="Last used">{a.last_used_at ? when(a.last_used_at) : '—'}</td>
            <DecisionCell>
              {extensionWaits(a) && (
                <>
                  <button type="button" class="primary" onClick={() => approveExtension(a.member_id)} aria-label={`Approve extension for ${a.username}`}>
                    Approve extension
                  </button>
                  <ReasonAction
                    id={`reject-extension-${a.member_id}`}
                    label="Reject"
                    text="Reject extension"
                    subject={`extension for ${a.username}`}
                    onSend={(reason) => rejectExtension(a.member_id, reason)}
                  />
                </>
              )}
              {a.status === 'pending' && (
                <>
                  <ApproveWithExpiry memberId={a.member_id} username={a.username} defaultDays={list.data.key_lifetime_days} onApprove={(body) => approve(a, body)} />
                  <ReasonAction id={`reject-${a.member_id}`} label="Reject" subject={`${a.username}'s application`} onSend={(reason) => reject(a.member_id, reason)} />
                </>
              )}
              {(a.status === 'active' || a.status === 'approved') && <ReasonAction id={`revoke-${a.member_id}`} label="Revoke" subject={`${a.username}'s credential`} onSend={(reason) => revoke(a.member_id, reason)} />}
            </DecisionCell>
          </tr>
        ))
      }
    </Queue>
  );
}

/** What the notice says of an approval: whose, and until when the key it leads to lives. */
const approved = (username: string, expiresAt: string | null) =>
  `Approved ${username}'s application: the key ${expiresAt ? `expires on ${when(expiresAt)}` : 'never expires'}. The member can claim it now.`;

/** The status as the member's dashboard words it: "active, expired" once the key is refused, not a bare "active" beside a past date. */
function StatusCell({ application: a }: { application: Application }) {
  const { words, tone } = statusOf(a);
  return (
    <td data-label="Status">
      <span class={`status ${tone}`}>{words}</span>
      {extensionWaits(a) && (
        <>
          {' '}
          <span class="status pending">extension requested</span>
        </>
      )}
      {(a.reject_reason ?? a.revoke_reason) && <small> “{a.reject_reason ?? a.revoke_reason}”</small>}
    </td>
  );
}

/**
 * When the key stops being accepted. Only an approved or active credential has a key: a pending,
 * rejected or revoked one has no expiry to tell, and "never" would promise a key that lives forever.
 */
function ExpiresCell({ application: a }: { application: Application }) {
  if (!hasKey(a)) return <td data-label="Expires">—</td>;
  if (!a.expires_at) return <td data-label="Expires">never</td>;
  return (
    <td data-label="Expires">
      <time dateTime={a.expires_at}>{when(a.expires_at)}</time>
      {extensionWaits(a) && (
        <p class="extension-request">
          Asked on {when(a.extension.requested_at)} to extend to <time dateTime={a.extension.expires_at}>{when(a.extension.expires_at)}</time>: “{a.extension.reason}”
        </p>
      )}
    </td>
  );
}
