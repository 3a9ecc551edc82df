import { MongoServerError, type Collection } from 'mongodb';
import type { CollectionSpec } from '../ports';
import { checkName } from '../names';

export const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

/** Every find answers in id order: the embedded adapter's, kept as one indexed key (guarded-writes.ts). */
export const ID_ORDER = { sort_key: 1, _id: 1 } as const;

/**
 * The index of each field a collection spec names, and of the id order. The field comes first and
 * the id order after it, so that one index serves both an equality find in id order (the field's
 * value fixed, the rest of the key already sorted) and a range find in field order, without a sort
 * in memory (docs/production.md shows the plans).
 */
export function indexesOf(spec: CollectionSpec): { name: string; key: Record<string, 1> }[] {
  return [
    { name: 'sort_key', key: { ...ID_ORDER } },
    ...spec.indexes.map((field) => {
      const path = `doc.${checkName('field', field)}`;
      return { name: `${path} then id`, key: { [path]: 1, ...ID_ORDER } as Record<string, 1> };
    }),
  ];
}

/**
 * Earlier releases named each field's index after the field and left the id out of it, so that a
 * find sorted its matches in memory; the index that replaced it (indexesOf) makes it redundant.
 */
export async function dropIfPresent(collection: Collection, index: string): Promise<void> {
  try {
    await collection.dropIndex(index);
  } catch (error) {
    if (!(error instanceof MongoServerError && [INDEX_NOT_FOUND, NAMESPACE_NOT_FOUND].includes(Number(error.code))))
      throw error;
  }
}
