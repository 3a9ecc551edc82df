import type { DocumentStore } from '../../src/stores/ports';
import { documentCollectionsContract } from './document-store-collections.contract';
import { documentQueriesContract } from './document-store-queries.contract';
import { documentWritesContract } from './document-store-writes.contract';
import { StoreFixture, useStore } from './fixture';

/** What every document store adapter does, one file per behaviour; each adapter's suite runs it. */
export function documentStoreContract(open: () => Promise<StoreFixture<DocumentStore>>): void {
  const store = useStore(open);
  documentWritesContract(store);
  documentQueriesContract(store);
  documentCollectionsContract(store);
}
