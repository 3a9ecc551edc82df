import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scrape } from '../support/metrics';
import { startPlatform, TestPlatform } from '../support/platform';

const OPS = join(__dirname, '../../ops');

interface Rule {
  alert: string;
  expr: string;
  for: string;
  labels: { severity: string };
  annotations: { summary: string; description: string };
}

// JSON is YAML: Prometheus reads the file as YAML, and this test as JSON, without a YAML library.
const rules = (
  JSON.parse(readFileSync(join(OPS, 'prometheus/alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(readFileSync(join(OPS, 'grafana/dashboards/platform.json'), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};

// Series Prometheus writes itself for every target: `up` says whether the scrape answered.
const PROMETHEUS_OWN = new Set(['up']);

const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'le',
]);

/** The metric names a PromQL expression reads: identifiers that are neither functions, keywords, labels nor strings. */
function metricsOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\()?/g)]
    .filter((m) => !m[2] && !KEYWORDS.has(m[1]!))
    .map((m) => m[1]!);
}

describe('the alert rules and the dashboard in ops/', () => {
  let t: TestPlatform;
  let exported: Set<string>;

  beforeAll(async () => {
    t = await startPlatform({ METRICS_PORT: 0 });
    const { text } = await scrape(t);
    // Every metric the service registers has a HELP line, whether or not it has a sample yet.
    exported = new Set([...text.matchAll(/^# HELP (\S+)/gm)].map((m) => m[1]!));
  });
  afterAll(() => t.close());

  const known = (name: string) =>
    PROMETHEUS_OWN.has(name) || exported.has(name) || exported.has(name.replace(/_(bucket|count|sum)$/, ''));

  it('alert on what the issue names: projection lag over 30 s, a store unavailable, the key ring stale, dead letters, dead webhook deliveries', () => {
    const byName = new Map(rules.map((r) => [r.alert, r]));
    expect(byName.get('PlatformProjectionLagging')?.expr).toMatch(/platform_projection_lag_seconds\)? > 30$/);
    for (const alert of [
      'PlatformStoreUnavailable',
      'PlatformKeyRingStale',
      'PlatformDeadLetters',
      'PlatformWebhookDeliveriesDead',
    ])
      expect(byName.has(alert)).toBe(true);
  });

  it("watch each job's scrape and each process's series, so a dead process is seen even though its own series vanish with it", () => {
    const byName = new Map(rules.map((r) => [r.alert, r]));
    for (const job of ['platform-api', 'platform-projector']) {
      expect(rules.some((r) => r.expr === `up{job="${job}"} == 0`)).toBe(true);
      expect(rules.some((r) => r.expr.startsWith('absent(') && r.expr.includes(`job="${job}"`))).toBe(true);
    }
    for (const alert of [
      'PlatformProjectorHeartbeatStale',
      'PlatformHttpServerErrors',
      'PlatformReadModelLagging',
      'PlatformMailDead',
    ])
      expect(byName.has(alert)).toBe(true);
  });

  it('are each complete: a duration, a severity, and a summary and description pointing at what to do', () => {
    for (const rule of rules) {
      expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical']).toContain(rule.labels.severity);
      expect(rule.annotations.summary.length).toBeGreaterThan(10);
      expect(rule.annotations.description).toContain(`docs/operations.md, ${rule.alert}`);
    }
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('read only metrics the service exports', () => {
    for (const rule of rules) {
      const names = metricsOf(rule.expr);
      expect(names.length).toBeGreaterThan(0);
      expect({ alert: rule.alert, unknown: names.filter((n) => !known(n)) }).toEqual({
        alert: rule.alert,
        unknown: [],
      });
    }
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets ?? [])
        expect({ panel: panel.title, unknown: metricsOf(expr).filter((n) => !known(n)) }).toEqual({
          panel: panel.title,
          unknown: [],
        });
    }
  });

  it('the extraction itself finds a misspelt metric', () => {
    expect(
      metricsOf('sum by (job) (increase(platform_mail_total{outcome="failed"}[15m])) > 0').filter((n) => !known(n)),
    ).toEqual(['platform_mail_total']);
  });

  it('each alert is explained in docs/operations.md', () => {
    const operations = readFileSync(join(__dirname, '../../docs/operations.md'), 'utf8');
    for (const rule of rules) expect(operations).toContain(`### ${rule.alert}`);
  });
});
