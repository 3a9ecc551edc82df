// 2^22 bits (512 KiB) and three probes: under one false "maybe" in a thousand up to about 150,000
// documents, one in eight at a million, and a false "maybe" costs only the read it would have cost.
const BITS = 1 << 22;
const PROBES = 3;

/** FNV-1a over the string's UTF-16 code units, seeded: cheap, and enough to spread ids apart. */
function hash(text: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * The ids of the documents a rebuild has stored in its aside collection, which it emptied first:
 * a Bloom filter, so that asking the store for a document it never wrote (most of a rebuild's
 * reads) is answered in memory. Never "no" for an id added; sometimes "maybe" for one never added.
 * A fixed half megabyte, however many documents.
 */
export class StoredIds {
  private readonly bits = new Uint32Array(BITS / 32);

  add(id: string): void {
    const h1 = hash(id, 0);
    const h2 = hash(id, 0x9e3779b9);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) % BITS;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** False only for an id never added. */
  mayHave(id: string): boolean {
    const h1 = hash(id, 0);
    const h2 = hash(id, 0x9e3779b9);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) % BITS;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}
