/** The longest a failing ticker waits between two turns. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Background work every few milliseconds, one turn at a time: a timed turn is skipped while the
 * one before still runs. A turn that fails is reported, and the next timed turn waits twice as
 * long as after the failure before, up to 30 s: a mail server or a store that is down costs a
 * log line every 30 s, not four a second. stop() waits for the turn under way. The timer never
 * keeps the process alive.
 */
export class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private busy = false;
  /** Turns failed in a row, and when the next timed turn may run after them. */
  private failures = 0;
  private resumeAt = 0;

  constructor(
    private readonly turn: () => Promise<void>,
    private readonly everyMs: number,
    private readonly failed: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.busy && Date.now() >= this.resumeAt) void this.tick();
    }, this.everyMs);
    this.timer.unref();
  }

  /** One turn now, after the one under way. */
  tick(): Promise<void> {
    this.running = this.running.then(async () => {
      this.busy = true;
      try {
        await this.turn();
        this.failures = 0;
        this.resumeAt = 0;
      } catch (err) {
        this.failures += 1;
        this.resumeAt = Date.now() + Math.min(MAX_BACKOFF_MS, this.everyMs * 2 ** (this.failures - 1));
        this.failed(err);
      } finally {
        this.busy = false;
      }
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
