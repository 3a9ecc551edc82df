/** Order statistics of the samples the benchmarks collect. */

/** Nearest-rank percentile (q from 0 to 1) of values sorted ascending. */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** p50, p99 and max of samples in milliseconds, and how many there were. */
export interface Distribution {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function distribution(samples: readonly number[]): Distribution {
  const sorted = [...samples].sort((x, y) => x - y);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}
