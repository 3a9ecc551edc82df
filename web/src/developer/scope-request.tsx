import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas, type ScopeName } from '../api/client';
import { mayRequestScope } from '../api/credential-rules';
import { navigate } from '../router';
import { Loading, LoadFailed, RefusalNotice } from '../ui/notice';
import { useDraft } from '../ui/draft';
import { useLoad } from '../ui/load';
import { ReasonField } from '../ui/reason';
import { NextStep, scopesStep } from './next-step';
import { ScreenHeading } from '../ui/screen';

/** Scopes are requested for an active credential; before that, the screen says what to do first. */
export function ScopeRequest({
  status,
  onRequested,
}: {
  status: Schemas['Credential']['status'];
  onRequested: (message: string) => void;
}) {
  const notYet = scopesStep(status);
  if (!notYet) return <ScopeRequestForm onRequested={onRequested} />;
  return (
    <section aria-labelledby="request-title">
      <ScreenHeading id="request-title">Request scopes</ScreenHeading>
      <NextStep step={notYet} />
    </section>
  );
}

/** On success the member lands on the dashboard, which says what was requested (`onRequested`). */
function ScopeRequestForm({ onRequested }: { onRequested: (message: string) => void }) {
  const [offers, reload] = useLoad(() => call(() => api.GET('/developer/scopes')));
  const [chosen, setChosen] = useState<string[]>([]);
  const [reason, setReason, clearReason] = useDraft('scope-purpose');
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  if (offers.state === 'loading') return <Loading what="the scopes" />;
  if (offers.state === 'failed') return <LoadFailed refusal={offers.refusal} onRetry={reload} />;

  const toggle = (name: string, on: boolean) =>
    setChosen((list) => (on ? [...list, name] : list.filter((n) => n !== name)));
  const send = async (event: Event) => {
    event.preventDefault();
    // Said in the page, in words, rather than left to the browser's own bubble on the first empty field.
    const missing = [
      chosen.length === 0 ? 'tick at least one scope' : '',
      reason.trim() === '' ? 'say what you will use it for under "Purpose of use"' : '',
    ].filter(Boolean);
    if (missing.length > 0) {
      const message = `Nothing was requested: ${missing.join(', and ')}.`;
      return setRefusal({ status: 0, error: 'incomplete_request', message, issues: [] });
    }
    // The names chosen are among those the service offered, which it takes from its own registry.
    const scopes = chosen as ScopeName[];
    const answer = await call(async () =>
      api.POST('/developer/scopes', { params: { header: await csrf() }, body: { scopes, reason } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    clearReason();
    onRequested(`Scopes requested: ${chosen.join(', ')}; an administrator will review them.`);
    navigate('/developer');
  };

  return (
    <form onSubmit={send} aria-labelledby="request-title" noValidate>
      <ScreenHeading id="request-title">Request scopes</ScreenHeading>
      <fieldset class="group">
        <legend>Scopes</legend>
        {offers.data.list.map((offer) => (
          <div class="check" key={offer.name}>
            <input
              id={`scope-${offer.name}`}
              type="checkbox"
              disabled={!mayRequestScope(offer.status)}
              checked={chosen.includes(offer.name)}
              onChange={(e) => toggle(offer.name, (e.currentTarget as HTMLInputElement).checked)}
            />
            <label for={`scope-${offer.name}`}>
              <code class="scope">{offer.name}</code>: {offer.description}
              {offer.status !== 'none' && <span class={`status ${offer.status}`}> {offer.status}</span>}
            </label>
          </div>
        ))}
      </fieldset>
      <ReasonField id="scope-reason" label="Purpose of use" value={reason} onInput={setReason} />
      <RefusalNotice refusal={refusal} takeFocus />
      <button type="submit" class="primary">
        Request
      </button>
    </form>
  );
}
