import { withStoreBudget } from '../../src/stores/budget';
import { StoreUnavailable } from '../../src/stores/ports';
import { Opened, note } from './support/kurrentdb-fixture';

/**
 * Issue 45, item 4: one store budget per request bounds all of its KurrentDB work, retries
 * included. A command reads its stream and appends; against a peer that accepts and never answers
 * it used to take the read's 10 s and the append's tries (up to 15 s) before its 503. Through the
 * real client and the service's adapter with its production limits; the peer is a stand-in
 * (test/support/kurrentdb-stand-in.ts) that checks CLIENT BEHAVIOUR ONLY, not a KurrentDB server.
 */
const BUDGET_MS = 1_000;
const opened = new Opened();
afterEach(() => opened.close());

it(`ends a command's read and append against a stalled server within the request's budget (${BUDGET_MS} ms) and half a second`, async () => {
  const peer = await opened.standIn();
  const store = opened.storeOn(peer.url());
  await store.append('note-1', [note()], 'any');
  peer.proxy.stall();
  for (const command of [
    () => store.readStream('note-1').then(() => store.append('note-1', [note()], 0)),
    () => store.append('note-1', [note()], 0),
  ]) {
    const started = Date.now();
    await expect(withStoreBudget(BUDGET_MS, command)).rejects.toBeInstanceOf(StoreUnavailable);
    expect(Date.now() - started).toBeLessThan(BUDGET_MS + 500);
  }
}, 60_000);
