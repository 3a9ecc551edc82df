import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { TableHead } from '../ui/table';

const COLUMNS = ['To', 'Subject', 'Why it is dead', 'Attempts', 'Queued', ''];

/**
 * The mails that are dead: refused for good by the SMTP server (a 5xx such as 550) or out of
 * attempts. No other mail waits for them; each is sent again only when an administrator retries it.
 */
export function DeadMails() {
  const [mails, reload] = useLoad(() => call(() => api.GET('/mails', { params: { query: { status: 'dead' } } })), []);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [retried, report] = useOutcome();
  const retry = async (id: string, to: string) => {
    const answer = await call(async () =>
      api.POST('/mails/{id}/retry', { params: { header: await csrf(), path: { id } }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    report(`Queued the mail to ${to} again: it is sent within a second.`);
    reload();
  };
  return (
    <>
      <ScreenHeading>Dead mail</ScreenHeading>
      <p class="hint">
        Mails the SMTP server refused for good, or that failed every attempt. Fix the address or the server, then retry.
      </p>
      <RefusalNotice refusal={refusal} />
      {retried.message && <Done focusKey={retried.serial}>{retried.message}</Done>}
      {mails.state === 'loading' && <Loading what="the dead mails" />}
      {mails.state === 'failed' && <LoadFailed refusal={mails.refusal} onRetry={reload} />}
      {mails.state === 'ready' && mails.data.list.length === 0 && (
        <Empty>No dead mail: every mail was sent or is still being tried.</Empty>
      )}
      {mails.state === 'ready' && mails.data.list.length > 0 && (
        <table class="dead-mails">
          <TableHead columns={COLUMNS} />
          <tbody>
            {mails.data.list.map((m) => (
              <tr key={m.id}>
                <td data-label="To">{m.to}</td>
                <td data-label="Subject">{m.subject}</td>
                <td data-label="Why it is dead">{m.cause ?? '—'}</td>
                <td data-label="Attempts">{m.attempts}</td>
                <td data-label="Queued">{when(m.queued_at)}</td>
                <td data-label="Actions" class="decision">
                  <button type="button" onClick={() => retry(m.id, m.to)} aria-label={`Retry the mail to ${m.to}`}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
