import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedVersionError } from '@kurrent/kurrentdb-client';
import { WrongExpectedVersion } from '../../../src/stores/ports';
import {
  isClientWrongExpectedVersion,
  toClientStreamState,
  toPortActualRevision,
  toPortRevision,
  toPortWrongExpectedVersion,
} from '../../../src/stores/eventstoredb/revisions';

describe('expected revision, port to client', () => {
  it.each([
    ['no_stream', NO_STREAM],
    ['any', ANY],
    ['stream_exists', STREAM_EXISTS],
    [0, 0n],
    [41, 41n],
    [Number.MAX_SAFE_INTEGER, BigInt(Number.MAX_SAFE_INTEGER)],
  ] as const)('maps %p to %p', (port, client) => {
    expect(toClientStreamState(port)).toBe(client);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])('rejects %p', (revision) => {
    expect(() => toClientStreamState(revision)).toThrow(RangeError);
  });
});

describe('revisions, client to port', () => {
  it('maps stream revisions to numbers', () => {
    expect(toPortRevision(0n)).toBe(0);
    expect(toPortRevision(7n)).toBe(7);
    expect(() => toPortRevision(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow('exceeds Number.MAX_SAFE_INTEGER');
  });

  it('maps the actual revision, with a missing stream as no_stream however the server says it', () => {
    expect(toPortActualRevision(NO_STREAM)).toBe('no_stream');
    expect(toPortActualRevision(-1n)).toBe('no_stream');
    expect(toPortActualRevision(0n)).toBe(0);
    expect(toPortActualRevision(12n)).toBe(12);
  });
});

/**
 * The client's WrongExpectedVersionError has a public constructor taking the details without a
 * gRPC error (`new WrongExpectedVersionError(undefined, { streamName, expected, current })`, the
 * form the client itself uses for batch appends), so these are the client's real error objects.
 */
describe('WrongExpectedVersionError, client to port', () => {
  function clientError(current: bigint | typeof NO_STREAM, expected: bigint | typeof NO_STREAM | typeof STREAM_EXISTS) {
    return new WrongExpectedVersionError(undefined, { streamName: 'member-7', expected, current });
  }

  it('recognises the client error and nothing else', () => {
    expect(isClientWrongExpectedVersion(clientError(2n, 1n))).toBe(true);
    expect(isClientWrongExpectedVersion(new WrongExpectedVersion('member-7', 1, 2))).toBe(false);
    expect(isClientWrongExpectedVersion(new Error('wrong expected version'))).toBe(false);
    expect(isClientWrongExpectedVersion({ type: 'wrong-expected-version' })).toBe(false);
  });

  it('keeps the stream, the expected revision asked for and the actual revision', () => {
    const mapped = toPortWrongExpectedVersion(clientError(2n, 1n), 1);
    expect(mapped).toBeInstanceOf(WrongExpectedVersion);
    expect(mapped).toMatchObject({ name: 'WrongExpectedVersion', stream: 'member-7', expected: 1, actual: 2 });
    expect(mapped.message).toBe('stream member-7: expected revision 1, actual 2');
  });

  it('reports a missing stream as actual no_stream', () => {
    const mapped = toPortWrongExpectedVersion(clientError(NO_STREAM, STREAM_EXISTS), 'stream_exists');
    expect(mapped).toMatchObject({ stream: 'member-7', expected: 'stream_exists', actual: 'no_stream' });
  });

  it('reports the condition the caller gave, not the client echo of it', () => {
    // Before 21.10 servers sent the expected version as a raw number, -1 standing for no stream.
    const legacy = clientError(4n, -1n);
    expect(toPortWrongExpectedVersion(legacy, 'no_stream')).toMatchObject({ expected: 'no_stream', actual: 4 });
  });
});
