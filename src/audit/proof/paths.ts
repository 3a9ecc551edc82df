import { nodeHash } from './merkle';

/**
 * RFC 9162 (RFC 6962 bis), 2.1.3 and 2.1.4: the audit path of a leaf and the consistency proof of
 * two tree sizes, planned as the half-open leaf ranges [lo, hi) whose Merkle tree hashes (MTH) make
 * them, lowest first. Which hashes a proof holds depends on the sizes alone, so a store of the tree's
 * nodes answers a proof with a few reads and no rehashing of the log.
 */
export type Range = readonly [lo: number, hi: number];

/** The largest power of two smaller than n (n > 1). */
export const splitOf = (n: number): number => 2 ** Math.floor(Math.log2(n - 1));

/** PATH(m, D[lo:hi]) of RFC 9162, 2.1.3.1, as ranges. */
export function inclusionRanges(index: number, size: number): Range[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size} leaves`);
  const plan: Range[] = [];
  const walk = (m: number, lo: number, hi: number): void => {
    if (hi - lo <= 1) return;
    const k = splitOf(hi - lo);
    if (m < k) {
      walk(m, lo, lo + k);
      plan.push([lo + k, hi]);
    } else {
      walk(m - k, lo + k, hi);
      plan.push([lo, lo + k]);
    }
  };
  walk(index, 0, size);
  return plan;
}

/** PROOF(m, D[n]) of RFC 9162, 2.1.4.1, as ranges: empty when m is 0 or m equals n. */
export function consistencyRanges(m: number, n: number): Range[] {
  if (!(m >= 0 && m <= n)) throw new RangeError(`a tree of ${m} leaves is not a prefix of one of ${n}`);
  const plan: Range[] = [];
  const subproof = (k: number, lo: number, hi: number, whole: boolean): void => {
    const size = hi - lo;
    if (k === size) {
      if (!whole) plan.push([lo, hi]);
      return;
    }
    const split = splitOf(size);
    if (k <= split) {
      subproof(k, lo, lo + split, whole);
      plan.push([lo + split, hi]);
    } else {
      subproof(k - split, lo + split, hi, false);
      plan.push([lo, lo + split]);
    }
  };
  if (m > 0 && m < n) subproof(m, 0, n, true);
  return plan;
}

/** RFC 9162, 2.1.3.2: whether the path leads from the leaf hash at `index` of a tree of `size` leaves to `root`. */
export function holdsInclusion(
  index: number,
  size: number,
  leaf: Buffer,
  path: readonly Buffer[],
  root: Buffer,
): boolean {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && r.equals(root);
}

/**
 * RFC 9162, 2.1.4.2: whether `proof` shows the tree of `first` leaves with root `firstRoot` to be a
 * prefix of the tree of `second` leaves with root `secondRoot`.
 */
export function holdsConsistency(
  first: number,
  second: number,
  firstRoot: Buffer,
  secondRoot: Buffer,
  proof: readonly Buffer[],
): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  // The empty tree is a prefix of every tree; RFC 9162 gives no proof for it.
  if (first === 0) return proof.length === 0;
  if (proof.length === 0) return false;
  // When the first tree is a full subtree of the second, its root starts the path.
  const path = Number.isInteger(Math.log2(first)) ? [firstRoot, ...proof] : [...proof];
  const roots = rootsAlong(first, second, path);
  return roots !== null && roots.first.equals(firstRoot) && roots.second.equals(secondRoot);
}

/** Steps 3 to 7 of RFC 9162, 2.1.4.2: the two roots the path folds to, or null when it is too long or too short. */
function rootsAlong(first: number, second: number, path: readonly Buffer[]): { first: Buffer; second: Buffer } | null {
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn /= 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? { first: fr, second: sr } : null;
}
