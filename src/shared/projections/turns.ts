/**
 * Runs `work` every `ms`, skipping a turn while the previous one is still busy; a failed turn is
 * reported and the next one tries again. The timer does not keep the process alive.
 */
export function every(ms: number, work: () => Promise<void>, failed: (err: unknown) => void): NodeJS.Timeout {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    work()
      .catch(failed)
      .finally(() => (busy = false));
  }, ms);
  timer.unref();
  return timer;
}

/** Whether the promise settles before the event loop turns: the log had the next event at hand. */
export function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(resolve, false)),
  ]);
}

/** Runs each piece of work given after the one before has settled, failed or not: one at a time. */
export function takingTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let queue: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = queue.then(work);
    queue = run.catch(() => undefined);
    return run;
  };
}
