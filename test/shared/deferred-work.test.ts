import { DeferredWork } from '../../src/shared/deferred-work';

describe('work deferred past the answer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs each job once its own delay has passed, not before', async () => {
    const ran: string[] = [];
    const delays = [300, 100];
    const work = new DeferredWork(
      () => delays.shift()!,
      10,
      () => {},
    );
    work.defer(async () => void ran.push('first'));
    work.defer(async () => void ran.push('second'));
    await jest.advanceTimersByTimeAsync(99);
    expect(ran).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(ran).toEqual(['second']);
    await jest.advanceTimersByTimeAsync(200);
    expect(ran).toEqual(['second', 'first']);
  });

  it('drops a job beyond `max` waiting, and says so; stopping drops what waits', async () => {
    let dropped = 0;
    let ran = 0;
    const work = new DeferredWork(
      () => 100,
      2,
      () => (dropped += 1),
    );
    for (let i = 0; i < 3; i++) work.defer(async () => void (ran += 1));
    expect(dropped).toBe(1);
    await work.stop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(ran).toBe(0);
  });
});
