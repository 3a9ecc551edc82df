import { randomUUID } from 'node:crypto';
import { START, type EventStore, type RecordedEvent } from '../../src/stores/ports';
import { appendDecided, streamEnd } from '../../src/shared/commands/context';
import { chainFieldsOf, digestOf } from '../../src/shared/domain/chain';
import { event, expectIncreasing, metadata, newStream, of } from './event-store-support';

/** Reading one stream, its chain of digests, the global log and its head. */
export function eventReadsContract(store: () => EventStore): void {
  describe('readStream', () => {
    it('reads in revision order, and backwards from the last event', async () => {
      const stream = newStream();
      await store().append(stream, [event('A'), event('B'), event('C')], 'no_stream');
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      const backwards = await store().readStream(stream, { direction: 'backwards' });
      expect(backwards.map((e) => e.type)).toEqual(['C', 'B', 'A']);
      const last = await store().readStream(stream, { direction: 'backwards', maxCount: 1 });
      expect(last.map((e) => [e.type, e.revision])).toEqual([['C', 2]]);
      const firstTwo = await store().readStream(stream, { direction: 'forwards', maxCount: 2 });
      expect(firstTwo.map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('reads a missing stream as an empty list', async () => {
      const stream = newStream();
      expect(await store().readStream(stream)).toEqual([]);
      expect(await store().readStream(stream, { direction: 'backwards', maxCount: 1 })).toEqual([]);
    });

    it('round-trips data and metadata', async () => {
      const stream = newStream();
      const data = { name: 'Zoë 🚀', count: 3, ratio: 0.5, on: false, none: null, nested: { list: [1, 'two'] } };
      const meta = metadata({ actor: { kind: 'admin', id: 7 }, reason: 'policy violation' });
      const head = await store().headPosition();
      const result = await store().append(stream, [{ type: 'Decided', data, metadata: meta }], 'no_stream');
      // The adapter draws the event's id and reads it back: webhook deliveries are known by it.
      const expected: RecordedEvent = {
        stream,
        revision: 0,
        position: result.position,
        type: 'Decided',
        data,
        metadata: meta,
        id: expect.any(String),
      };
      expect(await store().readStream(stream)).toEqual([expected]);
      expect(of(stream, await store().readAll(head, 1000))).toEqual([expected]);
    });
  });

  describe('the chain of a stream', () => {
    const ctx = {
      actor: { kind: 'admin' as const, id: 7 },
      requestId: randomUUID(),
      now: new Date(),
      reason: 'Zoë said so 🚀',
    };
    const seeded = { type: 'PlatformSeeded', data: {} };

    it('stores what the command handler chained, so that every digest recomputes and links to the one before', async () => {
      const stream = newStream();
      await appendDecided(store(), stream, [seeded, seeded], ctx, streamEnd(undefined));
      const [, second] = await store().readStream(stream);
      await appendDecided(store(), stream, [seeded], { ...ctx, requestId: randomUUID() }, streamEnd(second));
      const chain = await store().readStream(stream);
      expect(chain).toHaveLength(3);
      chain.forEach((e, i) => {
        expect(e.metadata.digest).toBe(digestOf(chainFieldsOf(e)));
        expect(e.metadata.prev_digest).toBe(i === 0 ? null : chain[i - 1]!.metadata.digest);
      });
      expect(new Set(chain.map((e) => e.metadata.digest)).size).toBe(3);
    });
  });

  describe('readAll', () => {
    it('reads the global log in commit order, strictly after `from`, up to maxCount', async () => {
      const [a, b] = [newStream(), newStream()];
      const head = await store().headPosition();
      await store().append(a, [event('A0'), event('A1')], 'no_stream');
      await store().append(b, [event('B0')], 'no_stream');
      const last = await store().append(a, [event('A2')], 1);

      const all = await store().readAll(head, 1000);
      expectIncreasing([head, ...all.map((e) => e.position)]);
      const ours = all.filter((e) => e.stream === a || e.stream === b);
      expect(ours.map((e) => e.type)).toEqual(['A0', 'A1', 'B0', 'A2']);
      expect(ours[3]?.position).toBe(last.position);
      expect((await store().headPosition()) >= last.position).toBe(true);

      const two = await store().readAll(head, 2);
      expect(two).toEqual(all.slice(0, 2));
      expect(of(a, await store().readAll(last.position, 1000))).toEqual([]);
    });

    it('resumes from a saved position with no loss and no duplicate', async () => {
      const stream = newStream();
      await store().append(stream, [event('E0'), event('E1'), event('E2'), event('E3')], 'no_stream');
      const recorded = await store().readStream(stream);
      const saved = recorded[1]?.position ?? START;
      expect(of(stream, await store().readAll(saved, 1000))).toEqual(recorded.slice(2));
    });
  });

  describe('headPosition', () => {
    it('moves to the position of the last append', async () => {
      const before = await store().headPosition();
      const result = await store().append(newStream(), [event('A')], 'no_stream');
      const after = await store().headPosition();
      expectIncreasing([before, result.position]);
      expect(after >= result.position).toBe(true);
    });
  });
}
