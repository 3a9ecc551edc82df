import { OperationTimedOut, drainWithin, within } from '../../../src/stores/eventstoredb/timeouts';

/** A read that never answers, as the client's bridge read does on a server that stopped answering. */
function silentRead(): AsyncIterableIterator<never> & { returned: boolean } {
  const read = {
    returned: false,
    next: () => new Promise<IteratorResult<never>>(() => undefined),
    return: async () => {
      read.returned = true;
      return { done: true as const, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return read;
    },
  };
  return read;
}

async function* events(...values: number[]) {
  for (const value of values) yield value;
}

describe('KurrentDB time limits', () => {
  it('gives up on a read that does not answer in time, and ends it', async () => {
    const read = silentRead();
    await expect(drainWithin(read, 30, 'read member-7')).rejects.toEqual(new OperationTimedOut('read member-7', 30));
    expect(read.returned).toBe(true);
  });

  it('returns a whole read that answers in time', async () => {
    await expect(drainWithin(events(1, 2, 3), 1_000, 'read s')).resolves.toEqual([1, 2, 3]);
  });

  it('keeps the late failure of an abandoned call from reaching the process', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      let failLate = (): void => undefined;
      const call = new Promise<never>((_, reject) => (failLate = () => reject(new Error('late response'))));
      await expect(within(call, 20, 'append to s')).rejects.toBeInstanceOf(OperationTimedOut);
      failLate();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});
