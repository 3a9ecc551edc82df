import { useState } from 'preact/hooks';
import { SecretOnce, type SecretWording } from '../ui/secret-once';

/** A webhook's signing secret while it is shown: `serial` tells one showing from the next. */
interface Shown {
  value: string;
  serial: number;
  /** The webhook it signs for: the secret goes when that webhook goes. */
  id: string;
  url: string;
}

export interface ShownSecret {
  shown: Shown;
  show: (hook: { id: string; url: string; secret: string }) => void;
  /** Hides it; with a webhook's id, only when it is that webhook's. */
  forget: (id?: string) => void;
}

/** The signing secret a screen shows once: of a webhook just registered, or given a new one. */
export function useShownSecret(): ShownSecret {
  const [shown, setShown] = useState<Shown>({ value: '', serial: 0, id: '', url: '' });
  return {
    shown,
    show: ({ id, url, secret }) => setShown((s) => ({ value: secret, serial: s.serial + 1, id, url })),
    forget: (id) => setShown((s) => (id === undefined || s.id === id ? { ...s, value: '', id: '', url: '' } : s)),
  };
}

/** The secret shown once, with the URL of the webhook it signs for. */
export function WebhookSecret({ secret, wording }: { secret: ShownSecret; wording: SecretWording }) {
  const { shown } = secret;
  if (!shown.value) return null;
  return (
    <SecretOnce key={shown.serial} secret={shown.value} wording={wording} onStored={() => secret.forget()}>
      <dt>Webhook</dt>
      <dd>
        <code>{shown.url}</code>
      </dd>
    </SecretOnce>
  );
}
