import { leafHash } from './merkle';
import { holdsInclusion } from './paths';

// The check of the legacy proofs (hex, leaves over digests) that `platform audit verify-proof` runs
// until it reads the answers of ./proofs.ts.

/** Whether the path leads from an event of this digest to the checkpoint's root. */
export function holdsProof(
  digest: string,
  proof: { leaf_index: number; path: string[]; checkpoint: { count: number; root: string } },
): boolean {
  const path = proof.path.map((h) => Buffer.from(h, 'hex'));
  return holdsInclusion(
    proof.leaf_index,
    proof.checkpoint.count,
    leafHash(Buffer.from(digest, 'hex')),
    path,
    Buffer.from(proof.checkpoint.root, 'hex'),
  );
}
