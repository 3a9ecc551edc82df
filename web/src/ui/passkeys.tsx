import { useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import { ConfirmAction } from './confirm-action';
import { Field } from './field';
import { useLoad } from './load';
import { LoadFailed, Loading, RefusalNotice } from './notice';
import { addPasskey, listPasskeys, removePasskey, type Side } from './passkeys-api';

/**
 * "Passkeys" on a member's or an administrator's own account screen: the passkeys by name, one
 * added under a name through the browser's authenticator, one removed. `onDone` tells the outcome.
 */
export function PasskeysCard({ side, onDone }: { side: Side; onDone: (message: string) => void }) {
  const [loaded, reload] = useLoad(() => listPasskeys(side), [side]);
  const [name, setName] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const answer = await addPasskey(side, name.trim());
    setBusy(false);
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setName('');
    reload();
    onDone(`Passkey "${answer.data.name}" added.`);
  };
  const remove = async (id: string, removed: string) => {
    const answer = await removePasskey(side, id);
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    reload();
    onDone(`Passkey "${removed}" removed.`);
  };

  if (loaded.state === 'failed') return <LoadFailed refusal={loaded.refusal} onRetry={reload} />;
  if (loaded.state === 'loading') return <Loading what="your passkeys" />;
  return (
    <form onSubmit={add} class="card" aria-labelledby="passkeys-title" noValidate>
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        {side === 'admin'
          ? "A passkey signs you in with this device's screen lock or a security key, without a password, and serves as a second factor after your password."
          : "A passkey completes your sign-in after your password, with this device's screen lock or a security key, as a second factor."}
      </p>
      {loaded.data.length === 0 ? (
        <p>You have no passkey yet.</p>
      ) : (
        <ul class="passkeys" aria-label="Your passkeys">
          {loaded.data.map((passkey) => (
            <li key={passkey.id}>
              {passkey.name}{' '}
              <ConfirmAction
                label="Remove"
                name={`Remove passkey ${passkey.name}`}
                title={`Remove the passkey ${passkey.name}?`}
                question="It no longer signs you in or completes a sign-in. This cannot be undone."
                onConfirm={() => void remove(passkey.id, passkey.name)}
              />
            </li>
          ))}
        </ul>
      )}
      <Field name="name" label="Name of the new passkey" value={name} onInput={setName} required refusal={refusal} />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary" aria-disabled={busy}>
        Add a passkey
      </button>
    </form>
  );
}
