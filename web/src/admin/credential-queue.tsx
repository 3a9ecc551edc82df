import { reviewedApplicationStatusValues } from '../../generated/contract';
import { api, call, csrf, type Schemas } from '../api/client';
import { everyPage, PAGE_LIMIT } from '../api/pages';
import { extensionWaits, hasKey, mayReview, mayRevoke, statusOf } from '../api/credential-rules';
import { useLoad, when } from '../ui/load';
import { ReasonAction } from '../ui/reason-action';
import { ApproveWithExpiry, type ApprovalBody } from './approve-expiry';
import { allMatching, decideApplications } from './bulk-applications';
import { clearedOnDecision, useBulkReview } from './bulk-review';
import { ApplicantCell } from './applicant-cell';
import { PAGE_SIZE, useQueueAddress, withAll } from './queue-address';
import { DecisionCell, Queue, saying, useDecisions } from './queue';

type Application = Schemas['ReviewedApplication'];
type Status = Application['status'];

/**
 * The statuses, and the active credentials whose member asks for a later expiry: a decision that
 * waits as a pending application does, though no status names it. Next to "pending", where a
 * reviewer looks for what waits.
 */
type Filter = Status | 'extension';
const FILTERS: Filter[] = reviewedApplicationStatusValues.flatMap((s) =>
  s === 'pending' ? [s, 'extension' as const] : [s],
);
const LABELS = { extension: 'extension requested' };

/**
 * The applications the filter and search name, a page at a time. Extension requests are the active
 * credentials that carry one, which the service does not filter: they come whole, and are few.
 */
async function applications(filter: Filter | '', q: string, after: string | undefined) {
  const search = q ? { q } : {};
  if (filter === 'extension') {
    const answer = await everyPage((from) =>
      call(() =>
        api.GET('/credentials', { params: { query: { ...search, status: 'active', limit: PAGE_LIMIT, after: from } } }),
      ),
    );
    return answer.ok ? { ...answer, data: { ...answer.data, list: answer.data.list.filter(extensionWaits) } } : answer;
  }
  return call(() =>
    api.GET('/credentials', {
      params: { query: { ...search, ...(filter && { status: filter }), limit: PAGE_SIZE, ...(after && { after }) } },
    }),
  );
}

/** The filter as the address names it: "all", a filter, or nothing for the pending ones a reviewer comes for. */
function filterOf(named: string | null): Filter | '' {
  if (named === 'all') return '';
  return FILTERS.find((f) => f === named) ?? 'pending';
}

export function CredentialQueue() {
  const { status, q, after, listKey, selected, toggle, select, controls, pager } = useQueueAddress(filterOf);
  const [list, reload] = useLoad(() => applications(status, q, after), [status, q, after]);
  const { done, refusal, decided, decide, decidedSaying } = useDecisions(reload, listKey);
  const member = async (member_id: number) => ({ header: await csrf(), path: { member_id } });
  const sendApproval = (a: Application, body: ApprovalBody) =>
    call(async () => api.POST('/credentials/{member_id}/approve', { params: await member(a.member_id), body }));
  const sendRejection = (a: Application, reason: string) =>
    call(async () =>
      api.POST('/credentials/{member_id}/reject', { params: await member(a.member_id), body: { reason } }),
    );
  const approve = (a: Application, body: ApprovalBody) =>
    decide(
      sendApproval(a, body).then((answer) =>
        answer.ok ? { ...answer, message: approved(a.username, answer.data.expires_at) } : answer,
      ),
    );
  const reject = (a: Application, reason: string) =>
    decidedSaying(sendRejection(a, reason), () => `Rejected ${a.username}'s application.`, reason);
  const revoke = (id: number, reason: string) =>
    decidedSaying(
      call(async () => api.POST('/credentials/{member_id}/revoke', { params: await member(id), body: { reason } })),
      (c) => `Revoked ${c.username}'s credential: its key is refused from now on.`,
      reason,
    );
  const approveExtension = (id: number) =>
    decide(
      call(async () =>
        api.POST('/credentials/{member_id}/extension/approve', { params: await member(id), body: {} }),
      ).then((answer) =>
        saying(answer, (c) => `Extended ${c.username}'s key: it now expires on ${when(c.expires_at)}.`),
      ),
    );
  const rejectExtension = (id: number, reason: string) =>
    decidedSaying(
      call(async () =>
        api.POST('/credentials/{member_id}/extension/reject', { params: await member(id), body: { reason } }),
      ),
      (c) => `Rejected ${c.username}'s extension request: the key keeps its expiry.`,
      reason,
    );
  const rows = list.state === 'ready' ? list.data.list : [];
  const chosen = [...selected].map(Number);
  const counts = withAll(list.state === 'ready' && 'counts' in list.data ? list.data.counts : undefined);
  const withSelect = status === 'pending';
  const defaultDays = list.state === 'ready' ? list.data.key_lifetime_days : null;
  const settled = clearedOnDecision(select);
  const bulk = useBulkReview({
    rows,
    keyOf: (a) => String(a.member_id),
    nameOf: (a) => a.username,
    noun: 'application',
    total: counts && status !== 'extension' ? counts[status] : null,
    selected,
    toggle,
    select,
    loadAll: () => allMatching(status, q),
    approve: (subject) => (
      <ApproveWithExpiry
        id="selected"
        subject={subject}
        defaultDays={defaultDays}
        onApprove={(approval) =>
          void decide(decideApplications(chosen, { decision: 'approve', ...approval }).then(settled))
        }
      />
    ),
    onReject: async (reason) =>
      decided(settled(await decideApplications(chosen, { decision: 'reject', reason })), reason),
  });

  return (
    <Queue
      title="Credential applications"
      id="credential-status"
      noun="application"
      statuses={FILTERS}
      labels={LABELS}
      empty={status === 'extension' ? 'No extension request waits.' : undefined}
      {...controls}
      counts={counts}
      selection={withSelect && bulk.selection}
      pages={
        list.state === 'ready' &&
        pager(rows.length, !counts || status === 'extension' ? null : counts[status], list.data.next)
      }
      list={list}
      bodyRef={bulk.bodyRef}
      compact
      onRetry={reload}
      columns={columnsFor(withSelect)}
      done={done}
      refusal={refusal}
    >
      {() =>
        rows.map((a, i) => (
          <tr key={a.member_id} {...bulk.rowProps(i)}>
            {withSelect && bulk.selectCell(a)}
            <ApplicantCell application={a} />
            <StatusCell application={a} />
            <td data-label="Applied">{when(a.applied_at)}</td>
            {!withSelect && (
              <>
                <td data-label="API id">{a.apiid ? <code class="apiid">{a.apiid}</code> : '—'}</td>
                <ExpiresCell application={a} />
                <td data-label="Last used">{a.last_used_at ? when(a.last_used_at) : '—'}</td>
              </>
            )}
            <DecisionCell>
              {extensionWaits(a) && (
                <>
                  <button
                    type="button"
                    class="primary"
                    onClick={() => approveExtension(a.member_id)}
                    aria-label={`Approve extension for ${a.username}`}
                  >
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
              {mayReview(a) && (
                <>
                  <ApproveWithExpiry
                    id={String(a.member_id)}
                    subject={a.username}
                    defaultDays={defaultDays}
                    onApprove={(body) => approve(a, body)}
                  />
                  <ReasonAction
                    id={`reject-${a.member_id}`}
                    label="Reject"
                    subject={`${a.username}'s application`}
                    onSend={(reason) => reject(a, reason)}
                  />
                </>
              )}
              {mayRevoke(a) && (
                <ReasonAction
                  id={`revoke-${a.member_id}`}
                  label="Revoke"
                  subject={`${a.username}'s credential`}
                  onSend={(reason) => revoke(a.member_id, reason)}
                />
              )}
            </DecisionCell>
          </tr>
        ))
      }
    </Queue>
  );
}

/** The columns: a pending application has no key yet, so its row stays one line without the key's. */
const columnsFor = (pending: boolean) => [
  ...(pending ? ['Select'] : []),
  'Member',
  'Status',
  'Applied',
  ...(pending ? [] : ['API id', 'Expires', 'Last used']),
  'Decision',
];

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
          Asked on {when(a.extension.requested_at)} to extend to{' '}
          <time dateTime={a.extension.expires_at}>{when(a.extension.expires_at)}</time>: “{a.extension.reason}”
        </p>
      )}
    </td>
  );
}
