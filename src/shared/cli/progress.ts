import { SingleBar } from 'cli-progress';
import { ReplayProgress } from '../projections/rebuild';

export interface ProgressReport {
  update(progress: ReplayProgress): void;
  finish(): void;
}

/**
 * A progress bar (events done, events per second, time left) when stdout is a terminal; nothing
 * on a pipe or a file, where the command's summary line is what a script or a log needs.
 */
export function progressBar(out: NodeJS.WriteStream, label: string): ProgressReport {
  if (!out.isTTY) return { update: () => undefined, finish: () => undefined };
  const bar = new SingleBar({
    stream: out,
    format: `${label} [{bar}] {percentage}% | {value}/{total} events | {speed} events/s | {eta_formatted} left`,
    hideCursor: true,
    etaBuffer: 50,
  });
  const started = performance.now();
  let shown = false;
  return {
    update({ events, position, until }) {
      const total = estimatedTotal(events, position, until);
      const speed = Math.round(events / Math.max((performance.now() - started) / 1000, 0.001));
      if (!shown) bar.start(total, events, { speed });
      else bar.setTotal(total);
      bar.update(events, { speed });
      shown = true;
    },
    finish: () => shown && bar.stop(),
  };
}

/**
 * The log's length, from how far along it the replay is: both adapters start a position with a
 * number that grows along the log (the SQLite sequence, exact; the EventStoreDB commit position,
 * in bytes, so an estimate).
 */
function estimatedTotal(events: number, position: string, until: string): number {
  const share = leadingNumber(position) / leadingNumber(until);
  return share > 0 ? Math.max(events, Math.round(events / share)) : events;
}

function leadingNumber(position: string): number {
  return Number(/^\d+/.exec(position)?.[0] ?? 0);
}
