/** What a result was measured on, and how busy the machine was around it. */
import { arch, cpus, loadavg, release, totalmem, type } from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  memory_gb: number;
  node: string;
  os: string;
  /** 1-minute load averages when the run began and ended: other work on the same cores shows here. */
  load_average: { start: number; end?: number };
}

export function machine(): Machine {
  const cores = cpus();
  return {
    cpu: cores[0]?.model ?? 'unknown',
    cores: cores.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${type()} ${release()} ${arch()}`,
    load_average: { start: loadavg()[0]! },
  };
}

export function loadAverageNow(): number {
  return loadavg()[0]!;
}

/** The command that reproduces this run: the knobs that were set, then npm run bench. */
export function commandLine(env: NodeJS.ProcessEnv): string {
  const knobs = Object.keys(env)
    .filter((name) => name.startsWith('BENCH_') && env[name] !== '')
    .sort()
    .map((name) => `${name}=${env[name]}`);
  return [...knobs, 'npm run bench'].join(' ');
}
