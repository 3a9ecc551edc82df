import { api, call, type Schemas } from '../api/client';
import { useLoad, when } from '../ui/load';
import { Empty, Loading, LoadFailed } from '../ui/notice';

type Usage = Schemas['Usage'];

/** Calls per day over 30 days as small bars, refused ones in their own colour; the numbers are in the title of each bar and the summary. */
export function UsageChart({ usage }: { usage: Usage }) {
  const most = Math.max(1, ...usage.days.map((d) => d.calls));
  const total = usage.days.reduce((sum, d) => sum + d.calls, 0);
  const refused = usage.days.reduce((sum, d) => sum + d.refused, 0);
  const wrongKeys = usage.days.reduce((sum, d) => sum + d.wrong_key, 0);
  // Calls with a key that is not this credential's are anyone's who knows the API id: not its use.
  const wrongKeyNote = wrongKeys > 0 ? ` ${wrongKeys} calls named your API id with a wrong key; they were refused and are not counted as use.` : '';
  // Thirty empty bars read as a blank box: without a call, say so in words.
  if (total === 0) {
    return <Empty>{(usage.last_used_at ? `No calls in the last 30 days. Last used: ${when(usage.last_used_at)}.` : 'No calls yet.') + wrongKeyNote}</Empty>;
  }
  return (
    <figure class="usage">
      <svg viewBox="0 0 300 60" role="img" aria-label={`${total} calls in 30 days, ${refused} refused`} width="100%" height="60">
        {usage.days.map((d, i) => {
          const h = (d.calls / most) * 56;
          const r = (d.refused / most) * 56;
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${d.calls} calls, ${d.refused} refused`}</title>
              <rect x={i * 10 + 1} y={60 - h} width="8" height={h} fill="#3b6ea5" />
              <rect x={i * 10 + 1} y={60 - r} width="8" height={r} fill="#b3412e" />
            </g>
          );
        })}
      </svg>
      <figcaption data-testid="usage-summary">
        {total} calls in 30 days, {refused} refused. Last used: {usage.last_used_at ? when(usage.last_used_at) : 'never'}.{wrongKeyNote}
      </figcaption>
    </figure>
  );
}

/** The member's own key's use. */
export function DeveloperUsage() {
  const [usage, reload] = useLoad(() => call(() => api.GET('/developer/usage')), []);
  return (
    <section aria-labelledby="usage-title" class="card">
      <h2 id="usage-title">Use of your key</h2>
      {usage.state === 'ready' && <UsageChart usage={usage.data} />}
      {usage.state === 'loading' && <Loading what="the use of your key" />}
      {usage.state === 'failed' && <LoadFailed refusal={usage.refusal} onRetry={reload} />}
    </section>
  );
}
