/**
 * What recording one call among a credential's recent calls costs, alone: CPU time per record
 * over a million calls spread over 1,000 credentials, each ring full (the steady state). Set
 * beside the partner call's server CPU per request (bench/open-api.ts, (a)), it bounds the share
 * recent calls can take of a partner call, whatever else the machine does.
 */
import { cpuUsage } from 'node:process';
import { RecentCalls } from '../src/credential/usage/recent-calls';

const CALLS = 1_000_000;
const CREDENTIALS = 1_000;

export function recentCallNanos(): number {
  const recent = new RecentCalls();
  const call = { method: 'GET', path: '/api/v1/open/addons', latency_ms: 1.2 };
  // Fill every ring first: the measured records replace the oldest, as in a long-running process.
  for (let i = 0; i < CREDENTIALS * 100; i++) recent.record(i % CREDENTIALS, 200, 'abcd1234', call);
  const before = cpuUsage();
  for (let i = 0; i < CALLS; i++)
    recent.record(i % CREDENTIALS, 200, 'abcd1234', { method: 'GET', path: call.path, latency_ms: i % 7 });
  const used = cpuUsage(before);
  return ((used.user + used.system) * 1000) / CALLS;
}

if (require.main === module) {
  const runs = [recentCallNanos(), recentCallNanos(), recentCallNanos()].sort((a, b) => a - b);
  process.stdout.write(
    `recording one recent call: ${runs[1]!.toFixed(0)} ns of CPU (median of 3 runs: ${runs.map((r) => r.toFixed(0)).join(', ')})\n`,
  );
}
