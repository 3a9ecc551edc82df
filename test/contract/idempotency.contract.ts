import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { DocumentStore } from '../../src/stores/ports';
import { StoreFixture, useStore } from './fixture';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const answer = { status: 201, body: '{"data":{"id":1}}' };

/** The idempotency records a DocumentStore keeps beside the read models: every adapter alike. */
export function idempotencyContract(open: () => Promise<StoreFixture<DocumentStore>>): void {
  const store = useStore(open);
  const records = () => store().idempotency;

  it('lets the first request take a key, and tells the next one it is in flight, with the first fingerprint', async () => {
    const key = randomUUID();
    expect(await records().begin(key, 'first', 'body-a', MINUTE_MS)).toBeNull();
    expect(await records().begin(key, 'second', 'body-b', MINUTE_MS)).toEqual({
      state: 'in_flight',
      fingerprint: 'body-a',
    });
  });

  it('lets exactly one of many requests racing for a key take it', async () => {
    const key = randomUUID();
    const taken = await Promise.all(
      Array.from({ length: 8 }, (_, i) => records().begin(key, `holder-${i}`, 'same', MINUTE_MS)),
    );
    expect(taken.filter((record) => record === null)).toHaveLength(1);
    expect(taken.filter((record) => record !== null)).toEqual(
      Array.from({ length: 7 }, () => ({ state: 'in_flight', fingerprint: 'same' })),
    );
  });

  it("keeps the holder's answer for those who ask again", async () => {
    const key = randomUUID();
    await records().begin(key, 'first', 'body', MINUTE_MS);
    await records().answered(key, 'first', answer, DAY_MS);
    expect(await records().begin(key, 'again', 'body', MINUTE_MS)).toEqual({
      state: 'answered',
      fingerprint: 'body',
      answer,
    });
  });

  it('frees a released key for the next request, and ignores a release or answer by one that no longer holds it', async () => {
    const key = randomUUID();
    await records().begin(key, 'first', 'body', MINUTE_MS);
    await records().release(key, 'first');
    expect(await records().begin(key, 'second', 'body', MINUTE_MS)).toBeNull();
    await records().release(key, 'first');
    await records().answered(key, 'first', answer, DAY_MS);
    expect(await records().begin(key, 'third', 'body', MINUTE_MS)).toEqual({ state: 'in_flight', fingerprint: 'body' });
  });

  it("lets a request take over a key whose holder's lease ran out, and an answer past its lifetime", async () => {
    const [stale, old] = [randomUUID(), randomUUID()];
    await records().begin(stale, 'died', 'body', 50);
    await records().begin(old, 'first', 'body', MINUTE_MS);
    await records().answered(old, 'first', answer, 50);
    await delay(120);
    expect(await records().begin(stale, 'next', 'other', MINUTE_MS)).toBeNull();
    expect(await records().begin(old, 'next', 'other', MINUTE_MS)).toBeNull();
    // The one that died cannot keep an answer under the key it lost.
    await records().answered(stale, 'died', answer, DAY_MS);
    expect(await records().begin(stale, 'later', 'other', MINUTE_MS)).toEqual({
      state: 'in_flight',
      fingerprint: 'other',
    });
  });
}
