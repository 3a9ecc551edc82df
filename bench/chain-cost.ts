/**
 * What the audit chain costs (BENCH_CHAIN=both): (d) in alternating rounds with the chain off and
 * on, the same client and machine, and (f) over a log written without it and one with it. The
 * service's chain is turned off by bench/chain-off.js, loaded before it: no setting of the
 * service's own can turn the chain off.
 */
import { join } from 'node:path';
import { benchRebuild, RebuildFigures } from './rebuild-figures';
import { BenchSettings } from './settings';
import { flowSummary, measureOnce, WriteFigures } from './write-path';

export interface ChainCost {
  /** (d), round by round: flows per second with the chain on over those with it off. */
  write?: { rounds: { off: WriteFigures; on: WriteFigures }[]; ratios: number[] };
  /** (f) over the same realistic log, written without and with the chain. */
  rebuild?: { off: RebuildFigures; on: RebuildFigures };
}

const CHAIN_OFF = ['-r', join(__dirname, 'chain-off.js')];

export async function benchChainCost(settings: BenchSettings): Promise<ChainCost> {
  const cost: ChainCost = {};
  if (settings.parts.has('d')) {
    const write: NonNullable<ChainCost['write']> = { rounds: [], ratios: [] };
    for (let round = 1; round <= settings.rounds; round++) {
      const off = (await measureOnce(settings, false, undefined, CHAIN_OFF)).write;
      process.stdout.write(`  round ${round}: chain off ${flowSummary(off)}\n`);
      const on = (await measureOnce(settings, false)).write;
      process.stdout.write(`  round ${round}: chain on  ${flowSummary(on)}\n`);
      write.rounds.push({ off, on });
      write.ratios.push(on.flowsPerSecond / off.flowsPerSecond);
    }
    cost.write = write;
  }
  if (settings.parts.has('f')) {
    process.stdout.write(
      `rebuild (f) with the chain off, then on, ${settings.rebuildEvents.toLocaleString('en')} events each\n`,
    );
    cost.rebuild = {
      off: await benchRebuild(settings.rebuildEvents, 'off'),
      on: await benchRebuild(settings.rebuildEvents, 'on'),
    };
  }
  return cost;
}
