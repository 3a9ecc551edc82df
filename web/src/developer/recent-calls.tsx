import { api, call } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Empty, Loading, LoadFailed } from '../ui/notice';
import { TableHead } from '../ui/table';

const COLUMNS = ['Time', 'Call', 'Status', 'Latency', 'Key'];

/** The key's last open-API calls, newest first, as the process answering keeps them (docs/notifications.md). */
export function RecentCalls() {
  const [calls, reload] = useLoad(() => call(() => api.GET('/developer/calls')), []);
  return (
    <section aria-labelledby="recent-calls-title" class="card">
      <h2 id="recent-calls-title">Recent calls</h2>
      {calls.state === 'loading' && <Loading what="your recent calls" />}
      {calls.state === 'failed' && <LoadFailed refusal={calls.refusal} onRetry={reload} />}
      {calls.state === 'ready' && calls.data.list.length === 0 && <Empty>No call yet.</Empty>}
      {calls.state === 'ready' && calls.data.list.length > 0 && (
        <>
          <p>
            Your key's last {calls.data.list.length} calls, newest first.{' '}
            <button type="button" onClick={reload}>
              Refresh
            </button>
          </p>
          <table class="recent-calls" data-testid="recent-calls">
            <TableHead columns={COLUMNS} />
            <tbody>
              {calls.data.list.map((c, i) => (
                <tr key={`${c.time}-${i}`}>
                  <td data-label="Time">{when(c.time)}</td>
                  <td data-label="Call">
                    <code>
                      {c.method} {c.path}
                    </code>
                  </td>
                  <td data-label="Status">{c.status}</td>
                  <td data-label="Latency">{c.latency_ms} ms</td>
                  <td data-label="Key">{c.key_fingerprint ?? 'wrong key'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
