import { api, call, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Empty, Loading, LoadFailed } from '../ui/notice';
import { UsageChart, UsageTable } from './usage-chart';
import { UsageByKey } from './usage-keys';

type Usage = Schemas['Usage'];

/** "1 call", "2 calls". */
const calls = (n: number): string => `${n} call${n === 1 ? '' : 's'}`;

/**
 * The key's use over 30 days: a summary in words, the chart with the day-by-day numbers beside it,
 * and after a rotation which key is called and when the previous one stops.
 */
export function UsageReport({ usage }: { usage: Usage }) {
  const total = usage.days.reduce((sum, d) => sum + d.calls, 0);
  const refused = usage.days.reduce((sum, d) => sum + d.refused, 0);
  const wrongKeys = usage.days.reduce((sum, d) => sum + d.wrong_key, 0);
  // Calls with a key that is not this credential's are anyone's who knows the API id: not its use.
  const wrongKeyNote =
    wrongKeys > 0
      ? ` ${calls(wrongKeys)} named your API id with a wrong key; ${wrongKeys === 1 ? 'it was' : 'they were'} refused and ${wrongKeys === 1 ? 'is' : 'are'} not counted as use.`
      : '';
  // Thirty empty bars read as a blank box: without a call, say so in words.
  if (total === 0) {
    return (
      <Empty>
        {(usage.last_used_at
          ? `No calls in the last 30 days. Last used: ${when(usage.last_used_at)}.`
          : 'No calls yet.') + wrongKeyNote}
      </Empty>
    );
  }
  return (
    <>
      <p data-testid="usage-summary">
        {calls(total)} in 30 days, {refused} refused. Last used:{' '}
        {usage.last_used_at ? when(usage.last_used_at) : 'never'}.{wrongKeyNote}
      </p>
      <div class="usage">
        <UsageChart days={usage.days} />
        <UsageTable days={usage.days} />
      </div>
      <UsageByKey keys={usage.keys} />
    </>
  );
}

/** The member's own key's use. */
export function DeveloperUsage() {
  const [usage, reload] = useLoad(() => call(() => api.GET('/developer/usage')), []);
  return (
    <section aria-labelledby="usage-title" class="card">
      <h2 id="usage-title">Use of your key</h2>
      {usage.state === 'ready' && <UsageReport usage={usage.data} />}
      {usage.state === 'loading' && <Loading what="the use of your key" />}
      {usage.state === 'failed' && <LoadFailed refusal={usage.refusal} onRetry={reload} />}
    </section>
  );
}
