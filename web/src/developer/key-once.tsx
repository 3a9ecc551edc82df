import { SecretOnce, SecretWording } from '../ui/secret-once';

const KEY_WORDING: SecretWording = {
  title: 'Your API key',
  warning:
    "This is the only time the key is shown: only its digest is kept. Store it in your server's secret store now.",
  label: 'API key (X-API-Key)',
  testId: 'apikey',
  copy: 'Copy the key',
  stored: 'I have stored the key somewhere safe',
  done: 'Done: hide the key',
  leave: 'The API key is shown only this once. Leave without storing it?',
};

/** An API key shown once, beside the API id it goes with. */
export function KeyOnce({
  apiid,
  apikey,
  note,
  onStored,
}: {
  apiid: string;
  apikey: string;
  note?: string;
  onStored: () => void;
}) {
  return (
    <SecretOnce secret={apikey} wording={KEY_WORDING} note={note} onStored={onStored}>
      <dt>API id (X-API-ID)</dt>
      <dd>
        <code data-testid="apiid">{apiid}</code>
      </dd>
    </SecretOnce>
  );
}
