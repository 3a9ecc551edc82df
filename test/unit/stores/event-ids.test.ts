import { eventId, eventIds } from '../../../src/stores/event-ids';
import type { NewEvent } from '../../../src/stores/ports';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('deterministic event ids', () => {
  it('are version-5 UUIDs, the same for the same request, stream, expected revision and index', () => {
    const id = eventId('req-1', 'member-7', 3, 0);
    expect(id).toMatch(UUID_V5);
    expect(eventId('req-1', 'member-7', 3, 0)).toBe(id);
  });

  it('differ as soon as any part differs', () => {
    const ids = [
      eventId('req-1', 'member-7', 3, 0),
      eventId('req-2', 'member-7', 3, 0),
      eventId('req-1', 'member-8', 3, 0),
      eventId('req-1', 'member-7', 4, 0),
      eventId('req-1', 'member-7', 'no_stream', 0),
      eventId('req-1', 'member-7', 3, 1),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are given to each event from its own request id and its index', () => {
    const metadata = {
      actor: { kind: 'cli' as const, id: null },
      request_id: 'req-9',
      time: '2026-01-01T00:00:00.000Z',
    };
    const events: NewEvent[] = [
      { type: 'A', data: {}, metadata },
      { type: 'B', data: {}, metadata },
    ];
    expect(eventIds('s', 'no_stream', events).map((e) => e.id)).toEqual([
      eventId('req-9', 's', 'no_stream', 0),
      eventId('req-9', 's', 'no_stream', 1),
    ]);
    expect(events[0]?.id).toBeUndefined();
  });
});
