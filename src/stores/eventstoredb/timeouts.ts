/** A store operation the server did not finish in time; whether a write took effect is unknown. */
export class OperationTimedOut extends Error {
  constructor(what: string, ms: number) {
    super(`${what}: no answer from KurrentDB within ${ms} ms`);
    this.name = 'OperationTimedOut';
  }
}

/** Every read and append answers within this, or fails: a request must not hang on an outage. */
export const OPERATION_TIMEOUT_MS = 10_000;

/**
 * A client call bounded by our own timer. The race subscribes to the call, so a late rejection of
 * an abandoned call is handled here rather than reaching the process's unhandled-rejection handler.
 */
export function within<T>(call: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OperationTimedOut(what, ms)), ms);
  });
  return Promise.race([call, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Reads a whole client read within `ms`. The client's reads are async iterators over the native
 * bridge that take no deadline and cannot be cancelled, so the time limit is ours: past it the
 * read is abandoned (return() ends it at its next page) and the caller gets OperationTimedOut.
 */
export async function drainWithin<T>(read: AsyncIterableIterator<T>, ms: number, what: string): Promise<T[]> {
  const drain = (async () => {
    const items: T[] = [];
    for await (const item of read) items.push(item);
    return items;
  })();
  try {
    return await within(drain, ms, what);
  } catch (error) {
    if (error instanceof OperationTimedOut) void read.return?.().catch(() => undefined);
    throw error;
  }
}
