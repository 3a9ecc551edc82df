import { expectedRevisionAfter } from '../../../src/stores/ports';

describe('expected revision after reading a stream', () => {
  it('is no_stream for a stream without events', () => {
    expect(expectedRevisionAfter([])).toBe('no_stream');
  });

  it("is the last event's own revision, also when the stream was truncated", () => {
    expect(expectedRevisionAfter([{ revision: 0 }, { revision: 1 }])).toBe(1);
    // $maxCount or $tb left revisions 40 and 41 of a 42-event stream: 41, not 1.
    expect(expectedRevisionAfter([{ revision: 40 }, { revision: 41 }])).toBe(41);
  });
});
