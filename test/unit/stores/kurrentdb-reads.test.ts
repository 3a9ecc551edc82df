import type { RecordedEvent as ClientRecordedEvent } from '@kurrent/kurrentdb-client';
import { positionOf, UnreadableEventError } from '../../../src/stores/eventstoredb/reads';

/** An event as the client hands one over, read from a stream; `position` as the server gave it. */
const readFromStream = (position: ClientRecordedEvent['position']) =>
  ({
    streamId: 'credential-1',
    revision: 3n,
    type: 'CredentialApplied',
    isJson: true,
    data: {},
    id: 'e',
    position,
  }) as unknown as ClientRecordedEvent;

describe('the log position of an event read from a stream', () => {
  it('is the one the server gave', () => {
    expect(positionOf(readFromStream({ commit: 120n, prepare: 118n }))).toEqual({ commit: 120n, prepare: 118n });
  });

  it.each([
    ['none, as servers before 22.6 may answer', undefined],
    [
      'the largest 64-bit number, as servers before 22.6 answer too',
      { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n },
    ],
  ])('is refused when it is %s, naming the event and the version needed', (_label, position) => {
    expect(() => positionOf(readFromStream(position))).toThrow(UnreadableEventError);
    expect(() => positionOf(readFromStream(position))).toThrow(
      /credential-1@3 .*no log position \(servers before 22\.6 do not\)/,
    );
  });
});
