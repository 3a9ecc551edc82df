import type { EventStore } from '../../src/stores/ports';
import { eventAppendsContract } from './event-store-appends.contract';
import { eventReadsContract } from './event-store-reads.contract';
import { eventSubscriptionsContract } from './event-store-subscriptions.contract';
import { eventIdContract } from './event-ids.contract';
import { StoreFixture, useStore } from './fixture';

/** What every event store adapter does, one file per behaviour; each adapter's suite runs it. */
export function eventStoreContract(open: () => Promise<StoreFixture<EventStore>>): void {
  const store = useStore(open);
  eventIdContract(store);
  eventAppendsContract(store);
  eventReadsContract(store);
  eventSubscriptionsContract(store);
}
