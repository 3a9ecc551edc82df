import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { registerStateGauges } from '../../src/observability/state-metrics';
import { Position, START, Stores } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';
import { parseExposition, valueOf } from '../support/metrics';

describe('projection lag', () => {
  let dir: string;
  let stores: Stores;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'platform-lag-'));
    stores = await openSqliteStores(dir);
  });
  afterEach(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const append = (stream: string, secondsAgo: number) =>
    stores.events.append(
      stream,
      [
        {
          type: 'Happened',
          data: {},
          metadata: {
            actor: { kind: 'system', id: 'test' },
            request_id: stream,
            time: new Date(Date.now() - secondsAgo * 1000).toISOString(),
          },
        },
      ],
      'no_stream',
    );

  async function gauges(checkpoints: Record<string, Position>) {
    const metrics = createMetrics();
    registerStateGauges(metrics, {
      stores,
      projections: { names: Object.keys(checkpoints), checkpoint: (name) => checkpoints[name] },
    });
    return parseExposition(await metrics.registry.metrics());
  }

  it('is the age of the oldest event a projection has not applied, and 0 at the head of the log', async () => {
    const first = await append('a-1', 42);
    await append('a-2', 10);
    const head = await stores.events.headPosition();
    const samples = await gauges({ stuck: START, halfway: first.position, current: head });
    expect(valueOf(samples, 'platform_projection_lag_seconds', { projection: 'stuck' })).toBeCloseTo(42, 0);
    expect(valueOf(samples, 'platform_projection_lag_seconds', { projection: 'halfway' })).toBeCloseTo(10, 0);
    expect(valueOf(samples, 'platform_projection_lag_seconds', { projection: 'current' })).toBe(0);
    expect(valueOf(samples, 'platform_projection_position', { projection: 'current' })).toBe(2);
    expect(valueOf(samples, 'platform_projection_position', { projection: 'stuck' })).toBe(0);
  });

  it('keeps a scrape answering when a store cannot be read, with the store shown down', async () => {
    await append('a-1', 5);
    const metrics = createMetrics();
    const broken = {
      ...stores,
      events: { ...stores.events, headPosition: () => Promise.reject(new Error('gone')) },
      health: async () => [{ name: 'eventstore', ok: false }],
    };
    registerStateGauges(metrics, { stores: broken, projections: { names: ['p'], checkpoint: () => START } });
    const samples = parseExposition(await metrics.registry.metrics());
    expect(valueOf(samples, 'platform_store_up', { store: 'eventstore' })).toBe(0);
    expect(valueOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });
});
