/**
 * Run in a child process by kurrentdb-tls.test.ts, so that the trust settings of its environment
 * (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS) are read as a service process reads them, at start:
 * `node -r ./test/support/load-ts.js test/reliability/support/tls-reach.ts <url> <as-given|as-the-service-connects>`.
 * Prints whether a read and an append through the adapter reached the peer (a stand-in).
 */
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { withOneTrustStore } from '../../../src/stores/eventstoredb/trust';
import { StoreUnavailable } from '../../../src/stores/ports';

async function main(url: string, how: string): Promise<void> {
  const connection = how === 'as-given' ? url : withOneTrustStore(url);
  const store = new EventStoreDbEventStore(KurrentDBClient.connectionString(connection), {
    operationTimeoutMs: 2_000,
    retry: {
      policy: { attempts: 1, initialMs: 1, maxMs: 1, jitter: 'full' },
      random: () => 0,
      sleep: async () => undefined,
    },
  });
  const outcome = (error: unknown) => (error instanceof StoreUnavailable ? 'store_unavailable' : String(error));
  const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'r', time: '2026-01-01T00:00:00.000Z' };
  const read = await store.readStream('note-1').then(() => 'answered', outcome);
  const append = await store
    .append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any')
    .then(() => 'answered', outcome);
  process.stdout.write(`${JSON.stringify({ read, append })}\n`);
  await store.close();
  process.exit(0);
}

void main(process.argv[2] ?? '', process.argv[3] ?? 'as-given');
