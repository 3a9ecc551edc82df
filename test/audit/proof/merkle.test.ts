import { createHash } from 'node:crypto';
import { leafHash, MerkleFrontier, treeRoot } from '../../../src/audit/proof/merkle';
import { consistencyRanges, holdsConsistency, holdsInclusion, inclusionRanges } from '../../../src/audit/proof/paths';

const sha256 = (...parts: Buffer[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
/** MTH of RFC 9162, 2.1.1, written from its definition: the reference the frontier must agree with. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const digests = Array.from({ length: 33 }, (_, i) => sha256(Buffer.from(`event ${i}`)).toString('hex'));
const leaves = digests.map((d) => leafHash(Buffer.from(d, 'utf8')));
const hashes = (size: number, plan: readonly (readonly [number, number])[]) =>
  plan.map(([lo, hi]) => treeRoot(leaves.slice(0, size).slice(lo, hi)));

describe('the Merkle tree of the checkpoints (RFC 9162)', () => {
  it('hashes a leaf as SHA-256(0x00 || its bytes)', () => {
    expect(leafHash(Buffer.from('abc'))).toEqual(sha256(Buffer.from([0]), Buffer.from('abc')));
  });

  it('has the root of the definition at every size, also when resumed from its frontier', () => {
    const tree = MerkleFrontier.empty();
    expect(tree.root()).toEqual(mth([]));
    leaves.forEach((leaf, i) => {
      tree.add(leaf);
      expect(tree.root()).toEqual(mth(leaves.slice(0, i + 1)));
      const resumed = MerkleFrontier.from(tree.hex(), tree.count);
      expect(resumed.root()).toEqual(tree.root());
    });
  });

  it('gives each leaf of each size a path that leads to the root, and to no other leaf or size', () => {
    for (let size = 1; size <= leaves.length; size++) {
      const root = mth(leaves.slice(0, size));
      for (let index = 0; index < size; index++) {
        const path = hashes(size, inclusionRanges(index, size));
        expect(holdsInclusion(index, size, leaves[index]!, path, root)).toBe(true);
        expect(holdsInclusion(index, size, leaves[(index + 1) % leaves.length]!, path, root)).toBe(false);
        if (size > 1) expect(holdsInclusion((index + 1) % size, size, leaves[index]!, path, root)).toBe(false);
      }
    }
  });

  it('proves each smaller size a prefix of each larger one, and no other root', () => {
    for (let second = 1; second <= leaves.length; second++) {
      const secondRoot = mth(leaves.slice(0, second));
      for (let first = 1; first <= second; first++) {
        const firstRoot = mth(leaves.slice(0, first));
        const proof = hashes(second, consistencyRanges(first, second));
        expect(holdsConsistency(first, second, firstRoot, secondRoot, proof)).toBe(true);
        if (first < second) {
          expect(holdsConsistency(first, second, mth(leaves.slice(1, first + 1)), secondRoot, proof)).toBe(false);
          expect(holdsConsistency(first, second, firstRoot, mth(leaves.slice(1, second + 1)), proof)).toBe(false);
        }
      }
    }
  });

  it('refuses a frontier that does not fit its count', () => {
    expect(() => MerkleFrontier.from([digests[0]!], 3)).toThrow(/3 leaves has 2 subtrees, not 1/);
  });
});
