import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The alert rules of ops/prometheus, run by Prometheus's own promtool on the series of
 * ops/prometheus/tests/alerts.test.yml: a rule nobody saw fire is a guess. `npm test` installs
 * promtool first where it can (scripts/promtool.sh); under CI=true a missing promtool fails these
 * tests, elsewhere they are skipped, saying why.
 */
const PROMETHEUS = join(__dirname, '../../ops/prometheus');
const PROMTOOL = process.env.PROMTOOL_PATH ?? 'promtool';
const found = spawnSync(PROMTOOL, ['--version'], { encoding: 'utf8' }).status === 0;
const required = process.env.CI === 'true';

const promtool = (cwd: string, ...args: string[]) => {
  if (!found)
    throw new Error(
      `no promtool (${PROMTOOL}): under CI=true it is required; install it with 'apt-get install prometheus' (scripts/promtool.sh), or set PROMTOOL_PATH`,
    );
  return spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8' });
};

if (!found && !required) {
  process.stdout.write(
    `SKIPPED alert rule tests: no promtool (${PROMTOOL}). Install it with 'apt-get install prometheus' (as root), or set PROMTOOL_PATH\n`,
  );
}

(found || required ? describe : describe.skip)('the alert rules, under promtool', () => {
  it('are valid Prometheus rules', () => {
    const checked = promtool(PROMETHEUS, 'check', 'rules', 'alerts.yml');
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('fire as their tests say: a stopped projector (up 0, then its series gone), the API gone, a stale heartbeat, lag, 5xx, read_model_lagging, dead mail', () => {
    const tested = promtool(PROMETHEUS, 'test', 'rules', 'tests/alerts.test.yml');
    expect(`${tested.stdout}${tested.stderr}`).toContain('SUCCESS');
    expect(tested.status).toBe(0);
  });

  it('fail when the projector has no absent() rule: the tests would catch a rule taken away', () => {
    const dir = mkdtempSync(join(tmpdir(), 'alert-rules-'));
    const rules = JSON.parse(readFileSync(join(PROMETHEUS, 'alerts.yml'), 'utf8')) as {
      groups: { rules: { alert: string }[] }[];
    };
    for (const group of rules.groups) group.rules = group.rules.filter((r) => r.alert !== 'PlatformProjectorAbsent');
    writeFileSync(join(dir, 'alerts.yml'), JSON.stringify(rules));
    mkdirSync(join(dir, 'tests'));
    copyFileSync(join(PROMETHEUS, 'tests/alerts.test.yml'), join(dir, 'tests/alerts.test.yml'));
    const tested = promtool(dir, 'test', 'rules', 'tests/alerts.test.yml');
    expect(tested.status).not.toBe(0);
    expect(`${tested.stdout}${tested.stderr}`).toMatch(/alertname: PlatformProjectorAbsent/);
  });
});
