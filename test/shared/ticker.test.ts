import { Ticker } from '../../src/shared/ticker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Ticker', () => {
  it('waits longer after each failed turn, and at the usual pace again once a turn succeeds', async () => {
    let failing = true;
    const turns: number[] = [];
    const start = Date.now();
    const ticker = new Ticker(
      async () => {
        turns.push(Date.now() - start);
        if (failing) throw new Error('down');
      },
      10,
      () => {},
    );
    ticker.start();
    await sleep(700);
    // Failing every turn: 10, 20, 40, 80, 160, 320 ms between them, so about 7 turns, not 70.
    const whileFailing = turns.length;
    expect(whileFailing).toBeGreaterThanOrEqual(4);
    expect(whileFailing).toBeLessThanOrEqual(9);
    failing = false;
    await sleep(1500);
    // Past the last wait (at most 640 ms), back to a turn every 10 ms or so.
    expect(turns.length - whileFailing).toBeGreaterThan(20);
    await ticker.stop();
  });

  it('skips a timed turn while the one before still runs', async () => {
    let running = 0;
    let overlapped = false;
    let turns = 0;
    const ticker = new Ticker(
      async () => {
        running += 1;
        overlapped ||= running > 1;
        turns += 1;
        await sleep(50);
        running -= 1;
      },
      5,
      () => {},
    );
    ticker.start();
    await sleep(300);
    await ticker.stop();
    expect(overlapped).toBe(false);
    // One turn per 50 ms at most, not one queued per 5 ms tick to run later.
    expect(turns).toBeLessThanOrEqual(7);
  });
});
