import { useState } from 'preact/hooks';
import { api, call, type Refusal, type Schemas } from '../api/client';
import { Field } from '../ui/field';
import { when } from '../ui/load';
import { Loading, RefusalNotice } from '../ui/notice';
import { Timeline } from './timeline';

type History = Schemas['CredentialHistory'];

/** A member id as typed, or the member whose username or API id (ak_…) it is, found by the service. */
async function memberIdOf(who: string): Promise<number | Refusal> {
  const typed = who.trim().replace(/^#/, '');
  if (/^[0-9]+$/.test(typed)) return Number(typed);
  const query = /^ak_/.test(typed) ? { apiid: typed } : { username: typed };
  const answer = await call(() => api.GET('/audit/members', { params: { query } }));
  return answer.ok ? answer.data.member_id : answer.refusal;
}

export function Auditor() {
  const [who, setWho] = useState('');
  const [asOf, setAsOf] = useState('');
  const [history, setHistory] = useState<History | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);

  const find = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const member = await memberIdOf(who);
    const answer =
      typeof member === 'number'
        ? await call(() =>
            api.GET('/credentials/{member_id}/history', {
              params: { path: { member_id: String(member) }, query: asOf ? { as_of: new Date(asOf).toISOString() } : {} },
            }),
          )
        : { ok: false as const, refusal: member };
    setBusy(false);
    setHistory(answer.ok ? answer.data : null);
    setRefusal(answer.ok ? null : answer.refusal);
  };

  return (
    <>
      <h1>Credential history</h1>
      <form onSubmit={find} class="card search">
        <Field name="who" label="Member id, username or API id" value={who} onInput={setWho} required />
        <div class="field">
          <label for="as-of">As of (optional)</label>
          <input id="as-of" type="datetime-local" step={1} value={asOf} aria-describedby="as-of-hint" onInput={(e) => setAsOf((e.currentTarget as HTMLInputElement).value)} />
          <small id="as-of-hint" class="hint">
            Your local time. Shows the events until then and the state at that instant.
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
          {history.state && (
            <p class="card" data-testid="state-as-of">
              As of {when(history.as_of)}: credential <span class={`status ${history.state.credential.status}`}>{history.state.credential.status}</span>
              {history.state.scopes.length > 0 && <>; scopes {history.state.scopes.map((s) => `${s.name} ${s.status}`).join(', ')}</>}.
            </p>
          )}
          <Timeline events={history.events} />
        </section>
      )}
      <section class="card" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p>The whole event log as newline-delimited JSON, secrets left out; its last line says where the next export resumes.</p>
        <a class="button" href="/api/v1/audit/events?limit=10000" download="platform-events.ndjson">
          Download the NDJSON export
        </a>
      </section>
    </>
  );
}
