/**
 * Run in a child process by kurrentdb-backlog.test.ts: `node -r ./test/support/load-ts.js
 * test/reliability/support/append-backlog.ts <adapter|client> <appends>`. Installs the service's
 * own process-level handler (src/fatal.ts), starts the appends against a stand-in KurrentDB peer
 * (client behaviour only, not a server), stalls the link once they are backed up, then cuts it.
 * Exits 0 with a JSON summary when every append settled and nothing asked the process to exit;
 * the handler's exit(1) otherwise.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { KurrentDBClient, jsonEvent } from '@kurrent/kurrentdb-client';
import pino from 'pino';
import { exitOnUnhandled } from '../../../src/fatal';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { StoreUnavailable } from '../../../src/stores/ports';
import { KurrentDbStandIn } from '../../support/kurrentdb-stand-in';

/** Large enough that a few hundred appends overrun HTTP/2 flow control windows and socket buffers. */
const PAYLOAD = 'x'.repeat(2_048);

async function main(path: string, appends: number): Promise<void> {
  let exitsAsked = 0;
  exitOnUnhandled(pino({ level: 'silent' }), () => void (exitsAsked += 1));
  const standIn = await KurrentDbStandIn.start();
  const client = KurrentDBClient.connectionString(standIn.url());
  const store = new EventStoreDbEventStore(client, {
    operationTimeoutMs: 3_000,
    retry: {
      policy: { attempts: 2, initialMs: 10, maxMs: 10, jitter: 'full' },
      random: () => 0,
      sleep: (ms) => sleep(ms),
    },
  });
  const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'r', time: '2026-01-01T00:00:00.000Z' };
  const append = (i: number) =>
    path === 'client'
      ? client.appendToStream(`fill-${i}`, [jsonEvent({ type: 'Filled', data: { i, PAYLOAD } })])
      : store.append(`fill-${i}`, [{ type: 'Filled', data: { i, PAYLOAD }, metadata }], 'no_stream');
  // The connection is up, and the client has what it asks on a new connection, before the burst.
  await append(-1);
  const settled = Array.from({ length: appends }, (_, i) =>
    append(i).then(
      () => 'committed',
      (error: unknown) => error,
    ),
  );
  await sleep(100);
  standIn.proxy.stall();
  await sleep(500);
  await standIn.proxy.down();
  const outcomes = await Promise.all(settled);
  // Rejections of abandoned writes come on later turns of the event loop.
  await sleep(500);
  const failures = outcomes.filter((outcome) => outcome !== 'committed');
  const summary = {
    path,
    appends,
    committed: appends - failures.length,
    storeUnavailable: failures.filter((f) => f instanceof StoreUnavailable).length,
    otherFailures: failures.filter((f) => !(f instanceof StoreUnavailable)).length,
    exitsAsked,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  await client.dispose();
  await standIn.close();
  process.exit(exitsAsked > 0 ? 1 : 0);
}

void main(process.argv[2] ?? 'adapter', Number(process.argv[3] ?? 500));
