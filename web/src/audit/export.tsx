import { useState } from 'preact/hooks';
import { api, raw, type Refusal } from '../api/client';
import { Field } from '../ui/field';
import { RefusalNotice } from '../ui/notice';

/** Events a download holds at most: the service's limit for one export. */
export const EXPORT_LIMIT = 10_000;

/** The name the file is saved under, as the plain download link gave it. */
export const EXPORT_FILE = 'platform-events.ndjson';

/** How long the saved file's object URL outlives the click: the browser reads it after the click returns. */
const RELEASE_AFTER_MS = 10_000;

/** Hands a file the console holds to the browser's download, under its name. */
export function saveFile(file: Blob, name: string): void {
  const href = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(href), RELEASE_AFTER_MS);
}

/** A position the log does not have is about what was pasted: said at that field. */
function atFrom(refusal: Refusal): Refusal {
  if (refusal.error !== 'invalid_position') return refusal;
  return { ...refusal, issues: [...refusal.issues, { path: 'from', message: refusal.message }] };
}

/**
 * The NDJSON export. A plain download link cannot show a refusal: the browser drops the answer
 * and cancels the download with nothing said. The console fetches the file instead, shows a
 * refusal in place with the envelope's message, and hands the file to the browser once it is
 * whole. It holds one file in memory, at most EXPORT_LIMIT events (a few megabytes).
 */
export function AuditExport() {
  const [from, setFrom] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');

  const download = async () => {
    // Busy, the button is marked, not disabled: a disabled button drops focus to the page's start.
    if (busy) return;
    setBusy(true);
    setSaved('');
    const query = { ...(from.trim() ? { from: from.trim() } : {}), limit: EXPORT_LIMIT };
    const answer = await raw(() => api.GET('/audit/events', { params: { query }, parseAs: 'blob' }));
    setBusy(false);
    if (!answer.ok) {
      const refused = atFrom(answer.refusal);
      setRefusal(refused);
      // Told at the field, the refusal is heard there: its description is the message.
      if (refused.issues.some((i) => i.path === 'from')) document.getElementById('field-from')?.focus();
      return;
    }
    setRefusal(null);
    saveFile(answer.data, EXPORT_FILE);
    setSaved(`Downloaded ${EXPORT_FILE}.`);
  };
  const atField = refusal?.issues.some((i) => i.path === 'from');

  return (
    <section class="card" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p>
        The event log as newline-delimited JSON, secrets left out, up to {EXPORT_LIMIT.toLocaleString()} events a file.
        The last line of a file says where it ended (<code>next</code>) and whether the log holds more (
        <code>more</code>): paste that <code>next</code> below to download the following events. That line is signed,
        and each event carries its digest: <code>platform audit verify</code> checks a file offline, with the public key
        the service signs with.
      </p>
      <Field
        name="from"
        label="Resume after position"
        value={from}
        onInput={setFrom}
        refusal={refusal}
        hint="The next of the file before; empty starts at the beginning of the log."
      />
      {!atField && <RefusalNotice refusal={refusal} />}
      <button type="button" class="primary" onClick={download} aria-disabled={busy}>
        Download the NDJSON export
      </button>
      <p role="status" class="found" data-testid="export-saved">
        {saved}
      </p>
    </section>
  );
}
