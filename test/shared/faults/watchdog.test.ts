import { watchBeats } from '../../../src/shared/projections/watchdog';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the projector's watchdog on its heartbeat loop", () => {
  it('tells of a stall once no beat has ended for the limit, and only once', async () => {
    const stalls: number[] = [];
    const watchdog = watchBeats((since) => stalls.push(since), 100);
    await wait(400);
    watchdog.stop();
    expect(stalls).toHaveLength(1);
    expect(stalls[0]).toBeGreaterThan(100);
  });

  it('stays quiet while beats end, stored or refused', async () => {
    const stalls: number[] = [];
    const watchdog = watchBeats((since) => stalls.push(since), 100);
    const beating = setInterval(() => watchdog.beat(), 20);
    await wait(400);
    clearInterval(beating);
    watchdog.stop();
    expect(stalls).toEqual([]);
  });
});
