import { streamEnd } from '../../../src/shared/commands/context';

describe('where a stream read for a command ends', () => {
  it('is no_stream, linked to nothing, for a stream without events', () => {
    expect(streamEnd(undefined)).toEqual({ expected: 'no_stream', digest: null });
  });

  it("is the last event's own revision, also when the stream was truncated, linked to its digest", () => {
    // $maxCount or $tb left revisions 40 and 41 of a 42-event stream: 41, not 1.
    expect(streamEnd({ revision: 41, metadata: { digest: 'd'.repeat(64) } })).toEqual({
      expected: 41,
      digest: 'd'.repeat(64),
    });
  });

  it('starts a chain after an event written before the chain: it has no digest to link to', () => {
    expect(streamEnd({ revision: 3, metadata: {} })).toEqual({ expected: 3, digest: null });
  });
});
