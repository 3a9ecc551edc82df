import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { when } from '../ui/load';
import { useDraft } from '../ui/draft';
import { RefusalNotice } from '../ui/notice';
import { ReasonField } from '../ui/reason';

const CHOICES = [30, 90, 180, 365];

/**
 * Asks an administrator for a later expiry of the key, with the reason. A pending request hides
 * this form, so what was asked is said by the dashboard (`onRequested`), not here.
 */
export function ExtensionRequest({ onRequested }: { onRequested: (message: string) => void }) {
  const [days, setDays] = useState(90);
  const [reason, setReason, clearReason] = useDraft('extension-reason');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const send = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/developer/extension', { params: { header: await csrf() }, body: { expires_in_days: days, reason } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    clearReason();
    const until = answer.data.extension?.expires_at;
    onRequested(`${until ? `Extension to ${when(until)}` : 'Extension'} requested; an administrator will review it.`);
  };
  return (
    <section aria-labelledby="extension-title" class="card">
      <h2 id="extension-title">Ask for a later expiry</h2>
      <form onSubmit={send}>
        <div class="field">
          <label for="extension-days">New expiry, from today</label>
          <select
            id="extension-days"
            value={String(days)}
            onChange={(e) => setDays(Number((e.currentTarget as HTMLSelectElement).value))}
          >
            {CHOICES.map((d) => (
              <option key={d} value={String(d)}>
                {d} days
              </option>
            ))}
          </select>
        </div>
        <ReasonField id="extension-reason" label="Why the key must live longer" value={reason} onInput={setReason} />
        <RefusalNotice refusal={refusal} />
        <button type="submit">Ask for the extension</button>
      </form>
    </section>
  );
}
