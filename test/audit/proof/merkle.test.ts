import { createHash } from 'node:crypto';
import { holdsInclusion, inclusionPath, leafHash, MerkleFrontier } from '../../../src/audit/proof/merkle';

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
const leaves = digests.map(leafHash);

describe('the Merkle tree of the checkpoints (RFC 9162)', () => {
  it('hashes a leaf as SHA-256(0x00 || digest)', () => {
    expect(leafHash(digests[0]!)).toEqual(sha256(Buffer.from([0]), Buffer.from(digests[0]!, 'hex')));
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
        const path = inclusionPath(index, leaves.slice(0, size));
        expect(holdsInclusion(index, size, leaves[index]!, path, root)).toBe(true);
        expect(holdsInclusion(index, size, leaves[(index + 1) % leaves.length]!, path, root)).toBe(false);
        if (size > 1) expect(holdsInclusion((index + 1) % size, size, leaves[index]!, path, root)).toBe(false);
      }
    }
  });

  it('refuses a frontier that does not fit its count', () => {
    expect(() => MerkleFrontier.from([digests[0]!], 3)).toThrow(/3 leaves has 2 subtrees, not 1/);
  });
});
