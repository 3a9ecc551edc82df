import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  /** Observations per bucket (not cumulative), the last one above every bound (+Inf). */
  inBucket: Float64Array;
  sum: number;
  count: number;
}

interface Sample {
  metricName?: string;
  labels: Labels;
  value: number;
}

/**
 * A histogram in prom-client's registry whose label sets are bound before the calls that record
 * into them: recording is a few additions to numbers the binding holds. prom-client's own
 * histogram hashes the label values into a string and checks them on every observation, even
 * through a bound child; on the partner lane that cost more than the rest of the metrics
 * (docs/operations.md). The exposition is prom-client's, through its registry.
 */
export class BoundHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** What records into the series of these labels, made at 0 now if it does not exist yet. */
  bind(labels: Labels): (value: number) => void {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let series = this.series.get(key);
    if (!series)
      this.series.set(key, (series = { labels, inBucket: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 }));
    const bound = series;
    const bounds = this.bounds;
    return (value) => {
      let bucket = 0;
      while (bucket < bounds.length && value > bounds[bucket]!) bucket++;
      bound.inBucket[bucket]! += 1;
      bound.sum += value;
      bound.count += 1;
    };
  }

  /** How many observations each label set has: a counter of the same calls reads these. */
  counts(): Sample[] {
    return [...this.series.values()].map(({ labels, count }) => ({ labels, value: count }));
  }

  get() {
    const values: Sample[] = [];
    for (const { labels, inBucket, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += inBucket[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le: String(bound), ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.series.values()) {
      series.inBucket.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/** A counter of the calls a bound histogram times (its `_count`, under a counter's name). */
export function countOf(histogram: BoundHistogram, name: string, help: string, registry: Registry): void {
  const counter = {
    name,
    help,
    type: 'counter',
    aggregator: 'sum',
    get: () => ({ name, help, type: 'counter', values: histogram.counts(), aggregator: 'sum' }),
    reset: () => {},
  };
  registry.registerMetric(counter as unknown as Parameters<Registry['registerMetric']>[0]);
}
