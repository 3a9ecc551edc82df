/**
 * Whether a read and an append through the adapter reach the peer (a stand-in), for
 * kurrentdb-tls.test.ts: in its own process, and run as a script in a child process so that the
 * trust settings of its environment (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS) are read as a service
 * process reads them, at start:
 * `node -r ./test/support/load-ts.js test/reliability/support/tls-reach.ts <url> <as-given|as-the-service-connects>`.
 */
import { KurrentDBClient } from '@kurrent/kurrentdb-client';
import { EventStoreDbEventStore } from '../../../src/stores/eventstoredb/event-store';
import { withOneTrustStore } from '../../../src/stores/eventstoredb/trust';
import { StoreUnavailable } from '../../../src/stores/ports';

/** 'answered', 'store_unavailable', or the error itself, for a read and an append through a client made from `connection`. */
export async function reach(connection: string): Promise<{ read: unknown; append: unknown }> {
  const store = new EventStoreDbEventStore(KurrentDBClient.connectionString(connection), {
    operationTimeoutMs: 2_000,
    retry: {
      policy: { attempts: 1, initialMs: 1, maxMs: 1, jitter: 'full' },
      random: () => 0,
      sleep: async () => undefined,
    },
  });
  const outcome = (error: unknown) => (error instanceof StoreUnavailable ? 'store_unavailable' : error);
  const metadata = { actor: { kind: 'cli' as const, id: null }, request_id: 'r', time: '2026-01-01T00:00:00.000Z' };
  try {
    return {
      read: await store.readStream('note-1').then(() => 'answered', outcome),
      append: await store
        .append('note-1', [{ type: 'Noted', data: {}, metadata }], 'any')
        .then(() => 'answered', outcome),
    };
  } finally {
    await store.close();
  }
}

async function main(url: string, how: string): Promise<void> {
  const { read, append } = await reach(how === 'as-given' ? url : withOneTrustStore(url));
  process.stdout.write(`${JSON.stringify({ read: String(read), append: String(append) })}\n`);
  process.exit(0);
}

if (require.main === module) void main(process.argv[2] ?? '', process.argv[3] ?? 'as-given');
