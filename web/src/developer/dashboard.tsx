import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { Link } from '../ui/link';
import { when } from '../ui/load';
import { Done, Empty, RefusalNotice, type Outcome } from '../ui/notice';
import {
  expiredAt,
  hasKey,
  mayApply,
  mayClaim,
  mayRequestExtension,
  mayRequestScopes,
  mayRotate,
  statusOf,
} from '../api/credential-rules';
import { TableHead } from '../ui/table';
import { ExtensionRequest } from './extension';
import { ApplicantFields, applicantBody, appliedWords, NO_APPLICANT } from './applicant-fields';
import { Rotate } from './rotate';
import { DeveloperUsage } from './usage';
import { RecentCalls } from './recent-calls';
import { LeakBanner } from './leak-banner';
import { ScreenHeading } from '../ui/screen';

type Dashboard = Schemas['Dashboard'];
type Credential = Schemas['Credential'];

const STATUS_TEXT: Record<Credential['status'], string> = {
  none: 'You have not applied for API credentials yet.',
  pending: 'Your application waits for an administrator.',
  approved: 'Approved: claim your key.',
  rejected: 'Your application was rejected. You may apply again.',
  active: 'Active: your server may call the open API with the scopes approved below.',
  revoked: 'Revoked: the key is refused. You may apply again.',
};

/**
 * An approved or active credential past its expiry: the service issues no key for it any more, so
 * the member applies again (or, while active, asks for an extension).
 */
const EXPIRED_TEXT: Partial<Record<Credential['status'], (at: string) => string>> = {
  approved: (at) => `The approval ran out on ${when(at)}, before the key was claimed. Apply again.`,
  active: (at) => `Expired on ${when(at)}: the key is refused. Ask for an extension below, or apply again.`,
};

/** What the credential's status means for the member, its expiry first. */
function statusText(credential: Credential, expired: string | null): string {
  return expired ? EXPIRED_TEXT[credential.status]!(expired) : STATUS_TEXT[credential.status];
}

/** The credential's history as the member sees it: each step that happened, with its reason. */
function credentialSteps(c: Credential): { what: string; at: string | null; why?: string | null }[] {
  return [
    { what: 'Applied', at: c.applied_at },
    // A review either rejects (the status says so until a new application) or approves.
    { what: c.status === 'rejected' ? 'Rejected' : 'Approved', at: c.reviewed_at, why: c.reject_reason },
    { what: 'Claimed', at: c.claimed_at },
    { what: 'Key rotated', at: c.key_rotated_at },
    { what: 'Revoked', at: c.revoked_at, why: c.revoke_reason },
  ].filter((step) => step.at);
}

interface DashboardProps {
  dashboard: Dashboard;
  reload: () => void;
  /** What the member's last request did (applied, extension or scopes requested), shown at the top. */
  outcome: Outcome;
  /** Says what a request did, and loads the dashboard again. */
  onOutcome: (message: string) => void;
}

/** When the key expires, or expired, with the extension asked for and what became of it. */
function KeyExpiry({ credential, expired }: { credential: Credential; expired: boolean }) {
  const extension = credential.extension;
  return (
    <p>
      {expired ? 'Key expired' : 'Key expires'}:{' '}
      <strong data-testid="expires-at">{credential.expires_at ? when(credential.expires_at) : 'never'}</strong>
      {extension && (
        <small>
          {' '}
          (extension to {when(extension.expires_at)}: {extension.status}
          {extension.reject_reason ? <>, “{extension.reject_reason}”</> : null})
        </small>
      )}
    </p>
  );
}

export function DeveloperDashboard({ dashboard, reload, outcome, onOutcome }: DashboardProps) {
  const { member, credential, scopes } = dashboard;
  const expired = expiredAt(credential);
  const status = statusOf(credential);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [applicant, setApplicant] = useState(NO_APPLICANT);

  const apply = async () => {
    const answer = await call(async () =>
      api.POST('/developer/credential', { params: { header: await csrf() }, body: applicantBody(applicant) }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    // In the console's words, as the other requests' notices: the service's message is written for API clients.
    onOutcome(appliedWords(answer.data.approved_by_rule));
  };

  return (
    <>
      <ScreenHeading title="Dashboard">Hello, {member.nickname || member.username}</ScreenHeading>
      <Done focusKey={outcome.serial}>{outcome.message}</Done>
      <LeakBanner leak={credential.leak} />
      <section aria-labelledby="credential-title" class="card">
        <h2 id="credential-title">Your API credential</h2>
        <p>
          Status: <strong class={`status ${status.tone}`}>{status.words}</strong>. {statusText(credential, expired)}
        </p>
        {credential.apiid && (
          <p>
            API id: <code>{credential.apiid}</code>
          </p>
        )}
        {hasKey(credential) && <KeyExpiry credential={credential} expired={expired !== null} />}
        <ol class="steps">
          {credentialSteps(credential).map((step) => (
            <li key={step.what}>
              {step.what} on {when(step.at)}
              {step.why ? <>: “{step.why}”</> : null}
            </li>
          ))}
        </ol>
        <ApplicantFields shown={mayApply(credential)} value={applicant} onChange={setApplicant} refusal={refusal} />
        <RefusalNotice refusal={refusal} />
        <div class="actions">
          {mayApply(credential) && (
            <button type="button" class="primary" onClick={apply}>
              Apply for API credentials
            </button>
          )}
          {mayClaim(credential) && <Link to="/developer/claim">Claim your key</Link>}
          {mayRequestScopes(credential) && <Link to="/developer/scopes">Request scopes</Link>}
          {credential.status === 'active' && <Link to="/developer/reference">Partner API reference</Link>}
        </div>
      </section>
      {mayRotate(credential) && <Rotate onRotated={reload} />}
      {credential.status === 'active' && (
        <>
          <DeveloperUsage />
          <RecentCalls />
        </>
      )}
      {mayRequestExtension(credential) && <ExtensionRequest onRequested={onOutcome} />}
      <section aria-labelledby="scopes-title" class="card">
        <h2 id="scopes-title">Scopes</h2>
        {scopes.length === 0 ? (
          <Empty>No scope requested yet.</Empty>
        ) : (
          <table>
            <TableHead columns={['Scope', 'Status', 'Your reason', 'Decision']} />
            <tbody>
              {scopes.map((scope) => (
                <tr key={scope.name}>
                  <td data-label="Scope">
                    <code class="scope">{scope.name}</code>
                  </td>
                  <td data-label="Status">
                    <span class={`status ${scope.status}`}>{scope.status}</span>
                  </td>
                  <td data-label="Your reason">{scope.reason}</td>
                  <td data-label="Decision">
                    {scope.revoke_reason ??
                      scope.reject_reason ??
                      (scope.reviewed_at ? `on ${when(scope.reviewed_at)}` : 'waiting')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
