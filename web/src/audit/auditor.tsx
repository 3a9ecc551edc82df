import { useState } from 'preact/hooks';
import { api, call, type Refusal, type Schemas } from '../api/client';
import { Field } from '../ui/field';
import { when } from '../ui/load';
import { Loading, RefusalNotice } from '../ui/notice';
import { Timeline } from './timeline';

type History = Schemas['CredentialHistory'];
type State = NonNullable<History['state']>;

/** Events a download holds at most: the service's limit for one export. */
const EXPORT_LIMIT = 10_000;

/** A member id as typed, or the member whose username or API id (ak_…) it is, found by the service. */
async function memberIdOf(who: string): Promise<number | Refusal> {
  const typed = who.trim().replace(/^#/, '');
  if (/^[0-9]+$/.test(typed)) return Number(typed);
  const query = /^ak_/.test(typed) ? { apiid: typed } : { username: typed };
  const answer = await call(() => api.GET('/audit/members', { params: { query } }));
  return answer.ok ? answer.data.member_id : answer.refusal;
}

/**
 * The instant a typed local time means, to its last millisecond: the timeline shows times to the
 * second, and an event recorded within the second typed happened by then.
 */
export function endOfTyped(local: string): string {
  const instant = new Date(local);
  const withSeconds = local.length > 'YYYY-MM-DDTHH:MM'.length;
  instant.setSeconds(withSeconds ? instant.getSeconds() : 59, 999);
  return instant.toISOString();
}

/** The credential at the instant asked for: status (expired when its key was refused then), API id, expiry, reason, scopes. */
function StateAsOf({ asOf, state }: { asOf: string; state: State }) {
  const { credential, scopes, expired } = state;
  const why = credential.revoke_reason ?? credential.reject_reason;
  const live = credential.status === 'approved' || credential.status === 'active';
  const details = [
    credential.apiid && `API id ${credential.apiid}`,
    live && (credential.expires_at ? `${expired ? 'expired' : 'expires'} ${when(credential.expires_at)}` : 'never expires'),
    why && `reason: ${why}`,
  ].filter(Boolean);
  return (
    <p class="card" data-testid="state-as-of">
      As of {when(asOf)}: credential{' '}
      <span class={`status ${expired ? 'expired' : credential.status}`}>{expired ? `${credential.status}, expired` : credential.status}</span>
      {details.length > 0 && <> ({details.join('; ')})</>}
      {scopes.length > 0 && <>; scopes {scopes.map((s) => `${s.name} ${s.status}`).join(', ')}</>}.
    </p>
  );
}

export function Auditor() {
  const [who, setWho] = useState('');
  const [asOf, setAsOf] = useState('');
  const [from, setFrom] = useState('');
  const [history, setHistory] = useState<History | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);

  const show = async (member: number | Refusal, instant: string | undefined) => {
    setBusy(true);
    const answer =
      typeof member === 'number'
        ? await call(() =>
            api.GET('/credentials/{member_id}/history', {
              params: { path: { member_id: String(member) }, query: instant ? { as_of: instant } : {} },
            }),
          )
        : { ok: false as const, refusal: member };
    setBusy(false);
    setHistory(answer.ok ? answer.data : null);
    setRefusal(answer.ok ? null : answer.refusal);
  };

  const find = async (event: Event) => {
    event.preventDefault();
    await show(await memberIdOf(who), asOf ? endOfTyped(asOf) : undefined);
  };

  const exportHref = `/api/v1/audit/events?${new URLSearchParams({ ...(from.trim() ? { from: from.trim() } : {}), limit: String(EXPORT_LIMIT) })}`;

  return (
    <>
      <h1>Credential history</h1>
      <form onSubmit={find} class="card search">
        <Field name="who" label="Member id, username or API id" value={who} onInput={setWho} required />
        <div class="field">
          <label for="as-of">As of (optional)</label>
          <input id="as-of" type="datetime-local" step={1} value={asOf} aria-describedby="as-of-hint" onInput={(e) => setAsOf((e.currentTarget as HTMLInputElement).value)} />
          <small id="as-of-hint" class="hint">
            Your local time, to the second: the events until the end of that second, and the state then. Each event also offers the state right after it.
          </small>
        </div>
        <button type="submit" class="primary" disabled={busy}>
          Show the history
        </button>
      </form>
      <RefusalNotice refusal={refusal} />
      {busy && <Loading what="the history" />}
      {history && (
        <section aria-labelledby="history-title">
          <h2 id="history-title">
            {history.username} <small>member #{history.member_id}</small>
          </h2>
          {history.state && history.as_of && <StateAsOf asOf={history.as_of} state={history.state} />}
          <Timeline events={history.events} onStateAfter={(event) => void show(history.member_id, event.time)} />
        </section>
      )}
      <section class="card" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p>
          The event log as newline-delimited JSON, secrets left out, up to {EXPORT_LIMIT.toLocaleString()} events a file. The last line of a file says where
          it ended (<code>next</code>) and whether the log holds more (<code>more</code>): paste that <code>next</code> below to download the following events.
        </p>
        <Field name="from" label="Resume after position" value={from} onInput={setFrom} hint="The next of the file before; empty starts at the beginning of the log." />
        <a class="button" href={exportHref} download="platform-events.ndjson">
          Download the NDJSON export
        </a>
      </section>
    </>
  );
}
