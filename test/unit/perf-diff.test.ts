import { costsOf, differences } from '../../bench/perf-diff';

describe('bench/perf-diff', () => {
  const report = [
    "# Samples: 20K of event 'cpu-clock'",
    '#',
    '    17.33%  [k] pvm_irq_enable',
    '     1.59%  [.] JS:*serve /repo/dist/shared/http/partner-lane.js:33:25',
    '     0.50%  [.] malloc',
    '     0.25%  [.] malloc',
    '',
  ].join('\n');

  it('turns the shares of perf report into µs of CPU a request, paths shortened, repeated symbols added', () => {
    const costs = costsOf(report, 40, '/repo/');
    expect([...costs.keys()]).toEqual(['pvm_irq_enable', 'JS:*serve dist/shared/http/partner-lane.js:33:25', 'malloc']);
    expect(costs.get('pvm_irq_enable')).toBeCloseTo(6.932);
    expect(costs.get('malloc')).toBeCloseTo(0.3);
  });

  it('ranks symbols by what (a) spends beyond (c), those only one side has included', () => {
    const a = new Map([
      ['writev', 2],
      ['hash', 0.5],
    ]);
    const c = new Map([
      ['writev', 1.5],
      ['koa', 0.8],
    ]);
    expect(differences(a, c).map((r) => [r.symbol, r.more])).toEqual([
      ['writev', 0.5],
      ['hash', 0.5],
      ['koa', -0.8],
    ]);
  });
});
