import { Position } from '../../stores/ports';
import { ProjectionLag } from './lag';

interface Waiter {
  position: Position;
  resolve(): void;
  reject(err: Error): void;
}

/** Callers waiting for a follower of the log to reach a position, each with its own deadline. */
export class PositionWaiters {
  private waiters: Waiter[] = [];

  wait(position: Position, timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { position, resolve, reject };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new ProjectionLag(position));
      }, timeoutMs);
      waiter.resolve = () => (clearTimeout(timer), resolve());
      waiter.reject = (err) => (clearTimeout(timer), reject(err));
      this.waiters.push(waiter);
    });
  }

  /** How many callers are waiting. */
  get size(): number {
    return this.waiters.length;
  }

  /** Releases everyone waiting for `position` or an earlier one. */
  reached(position: Position): void {
    const ready = this.waiters.filter((w) => w.position <= position);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.position > position);
    for (const w of ready) w.resolve();
  }

  failAll(err: Error): void {
    for (const w of this.waiters.splice(0)) w.reject(err);
  }
}
