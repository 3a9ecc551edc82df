/**
 * (f) The rebuild of every projection over a long log: bench/rebuild.ts in a child process (it
 * generates the log, measures the machine's floor for it, then rebuilds in a fresh process of its
 * own, so peak RSS is the rebuild's), its output passed through, and its JSON lines read.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface RebuildFigures {
  events: number;
  events_per_second: number;
  /** Events per second of CPU the rebuild used: what the rate would be with a core to itself. */
  events_per_cpu_second: number;
  peak_rss_mb: number;
  swap_seconds: number;
  rss_before_mb: number;
  /**
   * The same log read, decoded and evolved with every document in memory and nothing stored
   * (bench/rebuild-floor.js), in the same run: the work a rebuild on one thread cannot skip.
   */
  floor_events_per_second: number;
}

/** `chain`: whether the log is written with the audit chain (bench/chain-cost.ts compares). */
export async function benchRebuild(events: number, chain: 'on' | 'off' = 'on'): Promise<RebuildFigures> {
  const child = spawn(
    process.execPath,
    ['-r', join(__dirname, '../test/support/load-ts.js'), join(__dirname, 'rebuild.ts'), String(events), chain],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let rebuild: Omit<RebuildFigures, 'floor_events_per_second'> | undefined;
  let floor: { events_per_second: number } | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const parsed = line.startsWith('{') ? (JSON.parse(line) as { rebuild?: typeof rebuild; floor?: typeof floor }) : {};
    if (parsed.rebuild) rebuild = parsed.rebuild;
    else if (parsed.floor) floor = parsed.floor;
    else process.stdout.write(`  ${line}\n`);
  });
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0 || !rebuild || !floor)
    throw new Error(
      `bench/rebuild.ts exited with code ${String(code)}${rebuild && floor ? '' : ' without its figures'}`,
    );
  return { ...rebuild, floor_events_per_second: floor.events_per_second };
}
