import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Issue 32, N2: appends backed up behind flow control when the connection dies must not leave a
 * rejection nobody handles, which src/fatal.ts turns into process.exit(1): under a partition with
 * steady writes every API process would exit at once. Each run is a child process with the
 * service's own handler installed (./support/append-backlog.ts); the peer is a stand-in
 * (test/support/kurrentdb-stand-in.ts) that checks the real client's behaviour only, not a server's.
 */
const APPENDS = 1_000;

function run(path: 'adapter' | 'client') {
  const child = spawnSync(
    process.execPath,
    [
      '-r',
      './test/support/load-ts.js',
      join('test', 'reliability', 'support', 'append-backlog.ts'),
      path,
      String(APPENDS),
    ],
    { cwd: join(__dirname, '..', '..'), encoding: 'utf8', timeout: 25_000 },
  );
  const summary = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, number | string>;
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  return { status: child.status, summary };
}

describe('KurrentDB appends backed up when the connection dies (stand-in peer, real client)', () => {
  it('through the adapter: every append settles as StoreUnavailable or committed, and the process is never asked to exit', () => {
    const { status, summary } = run('adapter');
    expect(summary).toMatchObject({ appends: APPENDS, otherFailures: 0, exitsAsked: 0 });
    expect(summary.storeUnavailable).toBeGreaterThan(0);
    expect(status).toBe(0);
  }, 30_000);

  it("the client's own appendToStream (one shared batch stream) leaks rejections under the same fault: why the adapter does not use it", () => {
    const { status, summary } = run('client');
    expect(summary.exitsAsked).toBeGreaterThan(0);
    expect(status).toBe(1);
  }, 30_000);
});
