import { START } from '../../../src/stores/ports';
import { decodePosition, encodePosition } from '../../../src/stores/eventstoredb/positions';
import { seededRandom } from './seeded-random';

const MAX_U64 = 2n ** 64n - 1n;
const random = seededRandom(0x5eed);

/** A uniformly random bit length, then random bits: small and huge values both occur often. */
function randomU64(): bigint {
  const bits = BigInt(Math.floor(random() * 65));
  const high = BigInt(Math.floor(random() * 2 ** 32));
  const low = BigInt(Math.floor(random() * 2 ** 32));
  return ((high << 32n) | low) & ((1n << bits) - 1n);
}

const commits: bigint[] = [];

function randomPosition(): { commit: bigint; prepare: bigint } {
  // Half the time an earlier commit position comes back, so that ties decided by prepare are common.
  const reused = commits.length > 0 && random() < 0.5;
  const commit = reused ? (commits[Math.floor(random() * commits.length)] as bigint) : randomU64();
  commits.push(commit);
  return { commit, prepare: randomU64() };
}

function compareNumerically(a: { commit: bigint; prepare: bigint }, b: { commit: bigint; prepare: bigint }): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

describe('EventStoreDB position encoding', () => {
  it('encodes as two 20-digit decimals and decodes back', () => {
    expect(encodePosition({ commit: 1234n, prepare: 1200n })).toBe('00000000000000001234:00000000000000001200');
    expect(encodePosition({ commit: MAX_U64, prepare: 0n })).toBe('18446744073709551615:00000000000000000000');
    expect(decodePosition('00000000000000001234:00000000000000001200')).toEqual({ commit: 1234n, prepare: 1200n });
  });

  it('round-trips 10 000 random positions, edges included', () => {
    const edges = [0n, 1n, 2n ** 53n, 2n ** 63n, MAX_U64 - 1n, MAX_U64];
    const positions = [
      ...edges.flatMap((commit) => edges.map((prepare) => ({ commit, prepare }))),
      ...Array.from({ length: 10_000 }, randomPosition),
    ];
    for (const position of positions) {
      const encoded = encodePosition(position);
      expect(encoded).toHaveLength(41);
      expect(decodePosition(encoded)).toEqual(position);
    }
  });

  it('orders strings exactly as EventStoreDB orders positions, for 20 000 random pairs', () => {
    for (let i = 0; i < 20_000; i++) {
      const [a, b] = [randomPosition(), randomPosition()];
      expect(compareStrings(encodePosition(a), encodePosition(b))).toBe(compareNumerically(a, b));
    }
  });

  it('sorts a shuffled log back into commit order', () => {
    const log = Array.from({ length: 1_000 }, randomPosition).sort(compareNumerically);
    const encoded = log.map(encodePosition);
    const shuffled = [...encoded].sort(() => random() - 0.5);
    expect(shuffled.sort()).toEqual(encoded);
  });

  it('places START before every position, the first one included', () => {
    expect(START < encodePosition({ commit: 0n, prepare: 0n })).toBe(true);
  });

  it('rejects values outside the unsigned 64-bit range', () => {
    expect(() => encodePosition({ commit: -1n, prepare: 0n })).toThrow('commit position -1');
    expect(() => encodePosition({ commit: 0n, prepare: MAX_U64 + 1n })).toThrow(
      'prepare position 18446744073709551616',
    );
    expect(() => decodePosition('99999999999999999999:00000000000000000000')).toThrow(
      'outside the unsigned 64-bit range',
    );
  });

  it('rejects strings that are not its encoding', () => {
    for (const bad of [
      '',
      '42',
      '1234:1200',
      '00000000000000001234-00000000000000001200',
      ' 00000000000000001234:00000000000000001200',
    ]) {
      expect(() => decodePosition(bad)).toThrow('not an EventStoreDB position');
    }
  });
});
