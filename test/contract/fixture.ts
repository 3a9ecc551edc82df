export interface StoreFixture<Store> {
  store: Store;
  teardown(): Promise<void>;
}

/** Opens the adapter once for a contract suite; tests read it through the returned getter. */
export function useStore<Store>(open: () => Promise<StoreFixture<Store>>): () => Store {
  let fixture: StoreFixture<Store> | undefined;
  beforeAll(async () => {
    fixture = await open();
  });
  afterAll(() => fixture?.teardown());
  return () => {
    if (!fixture) throw new Error('the store did not open');
    return fixture.store;
  };
}
