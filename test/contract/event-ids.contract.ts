import { randomUUID } from 'node:crypto';
import { eventIds } from '../../src/stores/event-ids';
import { START, type EventStore, type NewEvent } from '../../src/stores/ports';

function event(type: string, requestId: string): NewEvent {
  return {
    type,
    data: {},
    metadata: { actor: { kind: 'system', id: null }, request_id: requestId, time: new Date().toISOString() },
  };
}

/**
 * What makes an append with an unknown outcome safe to retry: the same events under the same ids
 * are recognised (KurrentDB's idempotent write check) and answered as the first time.
 */
export function eventIdContract(store: () => EventStore): void {
  describe('append retried with the same event ids', () => {
    it('answers the same and appends nothing twice, on a new stream', async () => {
      const stream = `contract-${randomUUID()}`;
      const request = randomUUID();
      const events = eventIds(stream, 'no_stream', [event('A', request), event('B', request)]);
      const first = await store().append(stream, events, 'no_stream');
      const retried = await store().append(stream, events, 'no_stream');
      expect(retried).toEqual(first);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
    });

    it('answers the same and appends nothing twice, at an exact revision', async () => {
      const stream = `contract-${randomUUID()}`;
      await store().append(stream, [event('Opened', randomUUID())], 'no_stream');
      const request = randomUUID();
      const events = eventIds(stream, 0, [event('A', request), event('B', request)]);
      const first = await store().append(stream, events, 0);
      const head = await store().headPosition();
      const retried = await store().append(stream, events, 0);
      expect(retried).toEqual(first);
      expect(await store().headPosition()).toBe(head);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['Opened', 'A', 'B']);
    });

    it('still appends events of another request, which have other ids', async () => {
      const stream = `contract-${randomUUID()}`;
      const first = await store().append(
        stream,
        eventIds(stream, 'no_stream', [event('A', randomUUID())]),
        'no_stream',
      );
      const second = await store().append(stream, eventIds(stream, 0, [event('B', randomUUID())]), 0);
      expect(second.nextExpectedRevision).toBe(1);
      expect(second.position > first.position && first.position > START).toBe(true);
    });
  });
}
