import { ShownOnce } from '../ui/shown-once';

/** An API key shown once (ShownOnce): only its digest is kept. */
export function KeyOnce({ apiid, apikey, note, onStored }: { apiid: string; apikey: string; note?: string; onStored: () => void }) {
  return (
    <ShownOnce
      title="Your API key"
      what="key"
      warning="This is the only time the key is shown: only its digest is kept. Store it in your server's secret store now."
      secret={apikey}
      onStored={onStored}
    >
      {note && <p>{note}</p>}
      <dl>
        <dt>API id (X-API-ID)</dt>
        <dd>
          <code data-testid="apiid">{apiid}</code>
        </dd>
        <dt>API key (X-API-Key)</dt>
        <dd>
          <code data-testid="apikey" class="secret">
            {apikey}
          </code>
        </dd>
      </dl>
    </ShownOnce>
  );
}
