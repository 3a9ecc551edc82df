/** The service in a child process, as the reliability suite and the benchmarks start it. */
import { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const START_TIMEOUT_MS = 30_000;

/** A loopback port nobody listens on now (the OS picks it; the child binds it a moment later). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Resolves once GET <base>/api/v1/readyz answers 200; throws if the child exits first or takes too long. */
export async function untilHealthy(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the service exited with ${child.exitCode ?? child.signalCode} while starting`);
    }
    const healthy = await fetch(`${base}/api/v1/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (healthy) return;
    await sleep(50);
  }
  throw new Error(`the service did not answer GET /readyz with 200 within ${START_TIMEOUT_MS / 1000} s`);
}
