import { Histogram, Registry } from 'prom-client';
import { BoundHistogram, countOf } from '../../src/observability/bound-histogram';
import { parseExposition } from '../support/metrics';

describe('a bound histogram', () => {
  const buckets = [0.001, 0.01, 0.1];
  const values = [0.0005, 0.001, 0.002, 0.05, 0.1, 0.5, 3, 0.0001];

  it("exposes what prom-client's own histogram exposes for the same observations, and counts them", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const bound = new BoundHistogram('latency_seconds', 'latency', ['scope', 'outcome'], buckets, ours);
    countOf(bound, 'calls_total', 'calls', ours);
    const reference = new Histogram({
      name: 'latency_seconds',
      help: 'latency',
      labelNames: ['scope', 'outcome'],
      buckets,
      registers: [theirs],
    });
    const ok = bound.bind({ scope: 'addons.read', outcome: 'ok' });
    const refused = bound.bind({ scope: 'addons.read', outcome: 'revoked' });
    values.forEach((v, i) => {
      (i % 3 === 0 ? refused : ok)(v);
      reference.observe({ scope: 'addons.read', outcome: i % 3 === 0 ? 'revoked' : 'ok' }, v);
    });
    const mine = parseExposition(await ours.metrics());
    const expected = parseExposition(await theirs.metrics());
    const sorted = (samples: typeof mine) => samples.map((s) => JSON.stringify(s)).sort();
    expect(sorted(mine.filter((s) => s.name.startsWith('latency_seconds')))).toEqual(sorted(expected));
    expect(mine.filter((s) => s.name === 'calls_total')).toEqual([
      { name: 'calls_total', labels: { scope: 'addons.read', outcome: 'ok' }, value: 5 },
      { name: 'calls_total', labels: { scope: 'addons.read', outcome: 'revoked' }, value: 3 },
    ]);
    expect(await ours.metrics()).toMatch(/^# TYPE calls_total counter$/m);
  });

  it('shows a label set from its binding on, at 0, and binds one set once however often it is bound', async () => {
    const registry = new Registry();
    const bound = new BoundHistogram('h_seconds', 'h', ['route'], buckets, registry);
    bound.bind({ route: '/a' });
    bound.bind({ route: '/a' })(0.05);
    const samples = parseExposition(await registry.metrics());
    expect(samples.filter((s) => s.name === 'h_seconds_count')).toEqual([
      { name: 'h_seconds_count', labels: { route: '/a' }, value: 1 },
    ]);
    expect(samples.find((s) => s.name === 'h_seconds_bucket' && s.labels.le === '0.01')?.value).toBe(0);
  });
});
