import { setTimeout as delay } from 'node:timers/promises';
import { START, type EventStore } from '../../src/stores/ports';
import { CATCH_UP_MS, collect, event, newStream, settlesWithin } from './event-store-support';

/** Following the global log live, from a position, until the signal aborts. */
export function eventSubscriptionsContract(store: () => EventStore): void {
  describe('subscribeAll', () => {
    it('delivers the events before and after subscribing, in order', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      await store().append(stream, [event('Before')], 'no_stream');
      const received = collect(store(), head, stream, 3);
      await delay(CATCH_UP_MS);
      await store().append(stream, [event('Live1')], 0);
      await store().append(stream, [event('Live2')], 1);
      const events = await received;
      expect(events.map((e) => e.type)).toEqual(['Before', 'Live1', 'Live2']);
      expect(events).toEqual(await store().readStream(stream));
    });

    it('resumes from a saved position with no loss and no duplicate', async () => {
      const stream = newStream();
      await store().append(stream, [event('E0'), event('E1'), event('E2'), event('E3')], 'no_stream');
      const saved = (await store().readStream(stream))[1]?.position ?? START;
      const received = collect(store(), saved, stream, 3);
      await delay(CATCH_UP_MS);
      await store().append(stream, [event('E4')], 3);
      expect((await received).map((e) => e.type)).toEqual(['E2', 'E3', 'E4']);
    });

    it('ends when the consumer returns', async () => {
      const stream = newStream();
      const head = await store().headPosition();
      await store().append(stream, [event('A'), event('B')], 'no_stream');
      const iterator = store().subscribeAll(head)[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      expect(iterator.return).toBeDefined();
      expect(await iterator.return?.()).toEqual({ done: true, value: undefined });
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('ends when the signal aborts while it waits for new events', async () => {
      const abort = new AbortController();
      const subscription = store().subscribeAll(await store().headPosition(), abort.signal);
      const drained = (async () => {
        for await (const _ of subscription) {
          // Events of other writers are possible on a shared server; only the end matters.
        }
      })();
      await delay(CATCH_UP_MS);
      abort.abort();
      expect(await settlesWithin(drained, 2000)).toBe(true);
    });

    it('stops between two events when the signal aborts', async () => {
      const head = await store().headPosition();
      await store().append(newStream(), [event('A'), event('B'), event('C')], 'no_stream');
      const abort = new AbortController();
      const iterator = store().subscribeAll(head, abort.signal)[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      abort.abort();
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });

    it('delivers nothing when the signal has already aborted', async () => {
      await store().append(newStream(), [event('A')], 'no_stream');
      const iterator = store().subscribeAll(START, AbortSignal.abort())[Symbol.asyncIterator]();
      expect(await iterator.next()).toEqual({ done: true, value: undefined });
    });
  });
}
