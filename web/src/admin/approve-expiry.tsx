import { useState } from 'preact/hooks';
import type { paths } from '../../generated/contract';

/** What an approval says of the key's expiry, as the contract takes it. */
export type ApprovalBody = NonNullable<
  paths['/credentials/{member_id}/approve']['post']['requestBody']
>['content']['application/json'];

const PRESETS = [30, 90, 365];

/** The choices: days from the approval, a date, or never. */
type Choice = `${number}` | 'date' | 'never';

/** The service's default (KEY_LIFETIME_DAYS, null: never) as a choice, so that approving without a change keeps it. */
const defaultChoice = (days: number | null): Choice => (days === null ? 'never' : `${days}`);

const DAY_MS = 86_400_000;

/** The date input's earliest day: tomorrow, in the browser's calendar. */
function tomorrow(now = new Date()): string {
  const next = new Date(now.getTime() + DAY_MS);
  return `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-${String(next.getDate()).padStart(2, '0')}`;
}

/** A date chosen in the browser means the end of that day where the administrator is. */
const endOfDay = (date: string): string => new Date(`${date}T23:59:59`).toISOString();

export function approvalBody(choice: Choice, date: string): ApprovalBody {
  if (choice === 'never') return { expires_at: null };
  if (choice === 'date') return { expires_at: endOfDay(date) };
  return { expires_in_days: Number(choice) };
}

interface ApproveProps {
  /** Makes the controls' ids unique on the screen: the member id, or "selected". */
  id: string;
  /** What is approved, as the labels name it: "alice", "3 selected applications". */
  subject: string;
  /** KEY_LIFETIME_DAYS as the review list gives it; null: keys never expire by default. */
  defaultDays: number | null;
  onApprove: (body: ApprovalBody) => void;
}

/**
 * Approve with the key's expiry: presets, a date, or never, starting on the service's default so
 * that a reviewer who changes nothing gets what an approval without an expiry would.
 */
export function ApproveWithExpiry({ id, subject, defaultDays, onApprove }: ApproveProps) {
  const fallback = defaultChoice(defaultDays);
  const [choice, setChoice] = useState<Choice>(fallback);
  const [date, setDate] = useState('');
  const days = defaultDays !== null && !PRESETS.includes(defaultDays) ? [defaultDays, ...PRESETS] : PRESETS;
  const named = (words: string, value: Choice) => (value === fallback ? `${words} (default)` : words);
  const submit = (event: Event) => {
    event.preventDefault();
    onApprove(approvalBody(choice, date));
  };
  return (
    <form class="approve-expiry" onSubmit={submit}>
      <label for={`expiry-${id}`}>
        Key expires<span class="visually-hidden"> for {subject}</span>
      </label>
      <select
        id={`expiry-${id}`}
        value={choice}
        onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value as Choice)}
      >
        {days.map((d) => (
          <option key={d} value={`${d}`}>
            {named(`in ${d} days`, `${d}`)}
          </option>
        ))}
        <option value="date">on a date…</option>
        <option value="never">{named('never', 'never')}</option>
      </select>
      {choice === 'date' && (
        <>
          <label for={`expiry-date-${id}`}>
            Expiry date<span class="visually-hidden"> for {subject}</span>
          </label>
          <input
            id={`expiry-date-${id}`}
            type="date"
            required
            min={tomorrow()}
            value={date}
            onInput={(e) => setDate((e.currentTarget as HTMLInputElement).value)}
          />
        </>
      )}
      <button type="submit" class="primary" aria-label={`Approve ${subject}`}>
        Approve
      </button>
    </form>
  );
}
