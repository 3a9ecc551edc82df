/**
 * How long a rotated-away key stays accepted on another API instance: two instances on one
 * embedded store, a rotation on the first, then the second is polled every 2 ms until it refuses
 * the old key. Run: node -r ./test/support/load-ts.js bench/key-propagation.ts [rotations]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { activePartner, openCall, rotate } from '../test/support/credentials';
import { startPlatform, TestPlatform } from '../test/support/platform';

async function until(t: TestPlatform, apiid: string, key: string, status: number): Promise<void> {
  while ((await openCall(t, '/open/addons', apiid, key)).status !== status) await sleep(2);
}

async function main(rotations: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'key-propagation-'));
  const a = await startPlatform({ LOG_LEVEL: 'silent' }, dir);
  const b = await startPlatform({ LOG_LEVEL: 'silent', PROJECTIONS: 'off' }, dir);
  const samples: number[] = [];
  try {
    for (let i = 0; i < rotations; i++) {
      const p = await activePartner(a);
      await until(b, p.apiid, p.apikey, 200);
      await rotate(p);
      const started = performance.now();
      await until(b, p.apiid, p.apikey, 401);
      samples.push(performance.now() - started);
    }
  } finally {
    await b.close();
    await a.close();
    rmSync(dir, { recursive: true, force: true });
  }
  samples.sort((x, y) => x - y);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(1);
  process.stdout.write(`rotations=${samples.length} ms: min=${at(0)} p50=${at(0.5)} p90=${at(0.9)} max=${at(1)}\n`);
}

void main(Number(process.argv[2] ?? 30));
