/**
 * Background work every few milliseconds, one turn at a time: a turn that fails is reported and
 * the next turn tries again; stop() waits for the turn under way. The timer never keeps the
 * process alive.
 */
export class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly turn: () => Promise<void>,
    private readonly everyMs: number,
    private readonly failed: (err: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.everyMs);
    this.timer.unref();
  }

  /** One turn now, after the one under way. */
  tick(): Promise<void> {
    this.running = this.running.then(() => this.turn()).catch(this.failed);
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
