import type { Schemas } from '../api/client';
import { when } from '../ui/load';
import { TableHead } from '../ui/table';

type KeyUse = Schemas['Usage']['keys'][number];

const HOUR_MS = 3_600_000;

/** How long until an instant, in the words a member plans with: "in 3 hours", "in 25 minutes". */
export function timeLeft(until: string, now = Date.now()): string {
  const ms = Date.parse(until) - now;
  if (ms <= 0) return 'now';
  if (ms >= HOUR_MS) {
    const hours = Math.round(ms / HOUR_MS);
    return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  }
  const minutes = Math.max(1, Math.round(ms / 60_000));
  return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

const NAMES = { current: 'Current key', in_grace: 'Previous key', stopped: 'Earlier key' };

function stateOf(k: KeyUse): string {
  if (k.state === 'current') return 'accepted';
  if (k.state === 'in_grace' && k.valid_until)
    return `accepted until ${when(k.valid_until)} (${timeLeft(k.valid_until)})`;
  return 'no longer accepted';
}

/**
 * Which key the partner servers call with, after a rotation: the current key, the previous one
 * while its grace period lasts (and when it stops), and any stopped key still called.
 */
export function UsageByKey({ keys }: { keys: KeyUse[] }) {
  // One key and no rotation to tell apart: the chart says it all.
  if (keys.length < 2) return null;
  const previous = keys.find((k) => k.state === 'in_grace');
  return (
    <section aria-labelledby="usage-keys-title">
      <h3 id="usage-keys-title">Calls by key</h3>
      {previous?.valid_until && (
        <p class="notice wait" data-testid="previous-key-stops">
          Your previous key (<code>…{previous.key}</code>) stops being accepted on{' '}
          <time dateTime={previous.valid_until}>{when(previous.valid_until)}</time>, {timeLeft(previous.valid_until)}
          {previous.last_used_at
            ? `: it was last called on ${when(previous.last_used_at)}. Move every server to the current key before then.`
            : ': it has not been called since the rotation.'}
        </p>
      )}
      <table>
        <caption>
          Each key's calls over the last 30 days; the fingerprint is the start of the key's digest, not the key
        </caption>
        <TableHead columns={['Key', 'State', 'Calls', 'Refused', 'Last called']} />
        <tbody>
          {keys.map((k) => (
            <tr key={k.key}>
              <th scope="row" data-label="Key">
                {NAMES[k.state]} <code>…{k.key}</code>
              </th>
              <td data-label="State">{stateOf(k)}</td>
              <td data-label="Calls">{k.calls}</td>
              <td data-label="Refused">{k.refused}</td>
              <td data-label="Last called">{k.last_used_at ? when(k.last_used_at) : 'not in 30 days'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
