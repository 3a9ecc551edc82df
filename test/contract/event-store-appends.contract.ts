import { WrongExpectedVersion, type EventStore } from '../../src/stores/ports';
import { event, expectIncreasing, newStream, of, wrongExpectedVersion } from './event-store-support';

/** Appending to a stream, and the expected revision that guards it against a concurrent writer. */
export function eventAppendsContract(store: () => EventStore): void {
  describe('append and expected revision', () => {
    it('appends to a new stream with no_stream', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      const result = await store().append(stream, [event('A'), event('B')], 'no_stream');
      expect(result.nextExpectedRevision).toBe(1);
      expectIncreasing([head, result.position]);
      const events = await store().readStream(stream);
      expect(events.map((e) => [e.type, e.revision])).toEqual([
        ['A', 0],
        ['B', 1],
      ]);
      expect(events[1]?.position).toBe(result.position);
    });

    it('rejects no_stream on an existing stream, with the actual revision', async () => {
      const stream = newStream();
      await store().append(stream, [event('A'), event('B')], 'no_stream');
      const error = await wrongExpectedVersion(store().append(stream, [event('C')], 'no_stream'));
      expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1 });
    });

    it('accepts stream_exists only when the stream exists', async () => {
      const stream = newStream();
      const error = await wrongExpectedVersion(store().append(stream, [event('A')], 'stream_exists'));
      expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: 'no_stream' });
      await store().append(stream, [event('A')], 'no_stream');
      await expect(store().append(stream, [event('B')], 'stream_exists')).resolves.toMatchObject({
        nextExpectedRevision: 1,
      });
    });

    it('accepts the exact last revision and rejects any other', async () => {
      const stream = newStream();
      const first = await store().append(stream, [event('A'), event('B')], 'no_stream');
      const second = await store().append(stream, [event('C')], first.nextExpectedRevision);
      expect(second.nextExpectedRevision).toBe(2);
      for (const stale of [0, 1, 3]) {
        const error = await wrongExpectedVersion(store().append(stream, [event('D')], stale));
        expect(error).toMatchObject({ stream, expected: stale, actual: 2 });
      }
    });

    it('rejects an exact revision on a missing stream', async () => {
      const stream = newStream();
      const error = await wrongExpectedVersion(store().append(stream, [event('A')], 0));
      expect(error).toMatchObject({ expected: 0, actual: 'no_stream' });
    });

    it('accepts any on a missing and on an existing stream', async () => {
      const stream = newStream();
      await expect(store().append(stream, [event('A')], 'any')).resolves.toMatchObject({ nextExpectedRevision: 0 });
      await expect(store().append(stream, [event('B')], 'any')).resolves.toMatchObject({ nextExpectedRevision: 1 });
    });

    it('writes nothing when the expected revision does not match', async () => {
      const stream = newStream();
      await store().append(stream, [event('A')], 'no_stream');
      const before = await store().readStream(stream);
      const head = await store().headPosition();
      await wrongExpectedVersion(store().append(stream, [event('B'), event('C')], 'no_stream'));
      await wrongExpectedVersion(store().append(stream, [event('B')], 5));
      expect(await store().readStream(stream)).toEqual(before);
      // Filtered by stream rather than comparing heads: a shared server may see other writers.
      expect(of(stream, await store().readAll(head, 1000))).toEqual([]);
    });

    it('refuses to append an empty list, and creates no stream', async () => {
      const stream = newStream();
      const error = await store()
        .append(stream, [], 'any')
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(WrongExpectedVersion);
      expect(await store().readStream(stream)).toEqual([]);
    });

    it('keeps revisions 0-based and consecutive across appends', async () => {
      const stream = newStream();
      const first = await store().append(stream, [event('A'), event('B')], 'no_stream');
      const second = await store().append(stream, [event('C'), event('D'), event('E')], first.nextExpectedRevision);
      expect([first.nextExpectedRevision, second.nextExpectedRevision]).toEqual([1, 4]);
      const events = await store().readStream(stream);
      expect(events.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4]);
      expectIncreasing(events.map((e) => e.position));
      expect(events[4]?.position).toBe(second.position);
    });

    it('lets exactly one of 20 concurrent appends with the same expected revision win', async () => {
      const stream = newStream();
      const { nextExpectedRevision } = await store().append(stream, [event('Opened')], 'no_stream');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store().append(stream, [event('Raced', { i })], nextExpectedRevision)),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(failures).toHaveLength(19);
      for (const failure of failures) expect(failure).toBeInstanceOf(WrongExpectedVersion);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'Raced']);
    });
  });
}
