import { useEffect, useState } from 'preact/hooks';
import { api, call, type Refusal, type Schemas } from '../api/client';
import { BASE, navigate } from '../router';
import { Field } from '../ui/field';
import { when } from '../ui/load';
import { Loading, RefusalNotice } from '../ui/notice';
import { AuditExport } from './export';
import { summaryText, Timeline } from './timeline';
import { ScreenHeading } from '../ui/screen';
import { ProofStatus, useVerification, type Verification } from './proof-status';
import { StateAsOf, type State } from './state-as-of';
import { historyAddress, localInput } from './links';
import { AuditSearch } from './search';

type History = Schemas['CredentialHistory'];
type AuditEvent = History['events'][number];

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
 * second, and an event recorded within the second typed happened by then. The field always takes
 * seconds (step 1); Chromium leaves ":00" out of its value, which is still second 0, not the
 * minute's end.
 */
export function endOfTyped(local: string): string {
  const instant = new Date(local);
  instant.setMilliseconds(999);
  return instant.toISOString();
}

/** A lookup that found no one, or no history, is about what was typed: said at that field. */
function atWho(refusal: Refusal): Refusal {
  if (refusal.status !== 404) return refusal;
  return { ...refusal, issues: [...refusal.issues, { path: 'who', message: refusal.message }] };
}

/** What "Show the history" found, in words a screen reader announces: the timeline and state stand below, unread. */
function foundText(history: History): string {
  const events = `${history.events.length} ${history.events.length === 1 ? 'event' : 'events'}`;
  const asOf = history.as_of ? ` until ${when(history.as_of)}, with the state then` : '';
  return `History of ${history.username} (member #${history.member_id}): ${events}${asOf}.`;
}

/** The state right after one event of the timeline, as "State after this" asked for it. */
interface After {
  event: AuditEvent;
  state: State;
}

const historyOf = (member_id: number, as_of?: string) =>
  call(() =>
    api.GET('/credentials/{member_id}/history', { params: { path: { member_id }, query: as_of ? { as_of } : {} } }),
  );

type Answer = Awaited<ReturnType<typeof historyOf>>;

/** The history of whom `typed` names; with `at`, until the end of that second, with the state then. */
async function lookUp(typed: string, at: string): Promise<Answer> {
  const id = await memberIdOf(typed);
  if (typeof id !== 'number') return { ok: false, refusal: id };
  return historyOf(id, at ? endOfTyped(at) : undefined);
}

/**
 * Found, the address says whose history, and until when: reload and a link passed on show the same.
 * Told at the field, the refusal is heard there: its description is the message.
 */
function follow(answer: Answer, at: string) {
  if (!answer.ok) {
    if (answer.refusal.status === 404) document.getElementById('field-who')?.focus();
    return;
  }
  const address = historyAddress(answer.data.member_id, at ? answer.data.as_of : undefined);
  if (`${BASE}${address}` !== location.pathname + location.search) navigate(address, { stay: true });
}

export { MEMBER_HISTORY } from './links';

/** "As of", typed in the browser's local time, to the second. */
function AsOfField({ value, onInput }: { value: string; onInput: (value: string) => void }) {
  return (
    <div class="field">
      <label for="as-of">As of (optional)</label>
      <input
        id="as-of"
        type="datetime-local"
        step={1}
        value={value}
        aria-describedby="as-of-hint"
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)}
      />
      <small id="as-of-hint" class="hint">
        Your local time, to the second: the events until the end of that second, and the state then. Each event also
        offers the state right after it.
      </small>
    </div>
  );
}

interface Found {
  history: History;
  after: After | null;
  stateAfter: number;
  verification: Verification | null;
  onStateAfter: (event: AuditEvent) => void;
}

/** The member's timeline, with the state after the event asked for, or else at the instant asked for. */
function HistoryFound({ history, after, stateAfter, verification, onStateAfter }: Found) {
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">
        {history.username} <small>member #{history.member_id}</small>
      </h2>
      {after ? (
        <StateAsOf
          at={`Right after “${summaryText(after.event.summary)}” (${when(after.event.time)})`}
          state={after.state}
          focusKey={stateAfter}
        />
      ) : (
        history.state &&
        history.as_of && <StateAsOf at={`As of ${when(history.as_of)}`} state={history.state} focusKey={0} />
      )}
      <ProofStatus verification={verification} />
      <Timeline events={history.events} onStateAfter={onStateAfter} unverified={verification?.broken} />
    </section>
  );
}

/** The history search; with `member`, that member's history, as its address asks. */
export function Auditor({ member }: { member?: number }) {
  const [who, setWho] = useState(member === undefined ? '' : `#${member}`);
  // A link to an instant (the audit search's "State then") names it in the address: replayed to it, on a reload too.
  const [asOf, setAsOf] = useState(() => localInput(new URLSearchParams(location.search).get('as_of')));
  const [history, setHistory] = useState<History | null>(null);
  const [after, setAfter] = useState<After | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // What is being read: the history (the form) or the state after an event.
  const [busy, setBusy] = useState<'' | 'the history' | 'the state'>('');
  // Each "State after this" answered: the state card takes focus.
  const [stateAfter, setStateAfter] = useState(0);
  const [found, setFound] = useState('');
  const verification = useVerification(history?.events ?? null);

  /** The history of whom `typed` names; found, the address becomes that member's. */
  const show = async (typed: string, at = asOf) => {
    setBusy('the history');
    const answer = await lookUp(typed, at);
    setBusy('');
    setHistory(answer.ok ? answer.data : null);
    setAfter(null);
    setRefusal(answer.ok ? null : atWho(answer.refusal));
    setFound(answer.ok ? foundText(answer.data) : '');
    follow(answer, at);
  };
  // Opened at a member's address (a link, a reload, the back button): that member's history. Back
  // at the search's own address, the search starts over, as the address says.
  useEffect(() => {
    if (member === history?.member_id) return;
    setWho(member === undefined ? '' : `#${member}`);
    if (member !== undefined) {
      const at = localInput(new URLSearchParams(location.search).get('as_of'));
      setAsOf(at);
      return void show(String(member), at);
    }
    setHistory(null);
    setAfter(null);
    setFound('');
  }, [member]);

  const find = (event: Event) => {
    event.preventDefault();
    // Busy, the button is marked, not disabled: a disabled button drops focus to the page's start.
    if (!busy) void show(who);
  };

  /**
   * The state right after an event. Only the state card changes: the timeline stays as the form
   * asked for it (the whole history, or until "As of"), with what it found, so the auditor can
   * step from event to event. Its own as_of answer lists only the events until then.
   */
  const showAfter = async (member_id: number, event: AuditEvent) => {
    if (busy || event.time === null) return;
    setBusy('the state');
    const answer = await historyOf(member_id, event.time);
    setBusy('');
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    const { state } = answer.data;
    if (!state) return;
    setAfter({ event, state });
    setStateAfter((n) => n + 1);
  };

  const atField = refusal?.issues.some((i) => i.path === 'who');

  return (
    <>
      <ScreenHeading>Member history</ScreenHeading>
      <form onSubmit={find} class="card search">
        <Field
          name="who"
          label="Member id, username or API id"
          value={who}
          onInput={setWho}
          required
          refusal={refusal}
        />
        <AsOfField value={asOf} onInput={setAsOf} />
        <button type="submit" class="primary" aria-disabled={Boolean(busy)}>
          Show the history
        </button>
      </form>
      {!atField && <RefusalNotice refusal={refusal} />}
      <p role="status" class="found" data-testid="history-found">
        {found}
      </p>
      {busy && <Loading what={busy} />}
      {history && (
        <HistoryFound
          history={history}
          after={after}
          stateAfter={stateAfter}
          verification={verification}
          onStateAfter={(event) => void showAfter(history.member_id, event)}
        />
      )}
      {member === undefined && <AuditSearch />}
      <AuditExport />
    </>
  );
}
