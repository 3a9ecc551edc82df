/**
 * Work a request asks for, done a while after its answer, at a moment the requester does not pick:
 * run as the answer goes, it would slow the requester's next request, and tell them by its time
 * what the answer does not (a password-reset request for a known login does work an unknown one
 * does not). At most `max` jobs wait; beyond them a job is dropped (`dropped` is told).
 */
export class DeferredWork {
  private readonly waiting = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    /** How long a job waits, drawn anew for each: a spread, so that no request lands on it at a known offset. */
    private readonly delayMs: () => number,
    private readonly max: number,
    private readonly dropped: () => void,
  ) {}

  /** Runs `job` later; it handles its own failures. */
  defer(job: () => Promise<void>): void {
    if (this.waiting.size >= this.max) return this.dropped();
    const timer = setTimeout(() => {
      this.waiting.delete(timer);
      const run = job().finally(() => this.running.delete(run));
      this.running.add(run);
    }, this.delayMs());
    timer.unref();
    this.waiting.add(timer);
  }

  /** Drops what still waits (the requester may ask again) and lets what runs finish. */
  async stop(): Promise<void> {
    for (const timer of this.waiting) clearTimeout(timer);
    this.waiting.clear();
    await Promise.allSettled([...this.running]);
  }
}

/** Half a second to a second: far from the next request of a client, near enough for a mail. */
export const spreadDelay = (): number => 500 + Math.random() * 500;
