import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStores } from '../../src/stores/sqlite';
import { platform } from '../support/cli';

let root: string;
let umask: number;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'platform-modes-'));
  // The usual umask, under which files are created world-readable unless the service says otherwise.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Opens the embedded stores and makes them write, so that every file SQLite keeps exists. */
async function useStores(dataDir: string): Promise<void> {
  const stores = openSqliteStores(dataDir);
  try {
    await stores.events.append(
      'modes-1',
      [
        {
          type: 'Written',
          data: {},
          metadata: { actor: { kind: 'cli', id: null }, request_id: 'modes', time: new Date().toISOString() },
        },
      ],
      'no_stream',
    );
    await (
      await stores.rateLimits.limiter({ name: 'modes', points: 5, windowSeconds: 60, blockSeconds: 0 })
    ).consume('k');
    await stores.sessions.create('s', { kept: true }, 60_000);
    const files = readdirSync(dataDir);
    expect(files).toEqual(
      expect.arrayContaining([
        'platform.db',
        'platform.db-wal',
        'platform.db-shm',
        'rate-limits.db',
        'rate-limits.db-wal',
      ]),
    );
    expect(modeOf(dataDir)).toBe('700');
    expect(Object.fromEntries(files.map((f) => [f, modeOf(join(dataDir, f))]))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    );
  } finally {
    await stores.close();
  }
}

describe('the embedded data directory', () => {
  it('is created 0700 with every file in it 0600, whatever the umask', async () => {
    await useStores(join(root, 'data', 'nested'));
  });

  it('is made private when it and its files already existed readable by others', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    for (const file of ['platform.db', 'rate-limits.db']) writeFileSync(join(dataDir, file), '', { mode: 0o644 });
    await useStores(dataDir);
  });

  it('is made private by a process that opens only some of its files, as the CLI does', async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const loose = ['rate-limits.db', 'rate-limits.db-wal', 'projections.lock', 'webhook-secret.key'];
    for (const file of loose) writeFileSync(join(dataDir, file), '', { mode: 0o644 });
    await openSqliteStores(dataDir).close();
    expect(modeOf(dataDir)).toBe('700');
    const files = readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(loose));
    expect(Object.fromEntries(files.map((f) => [f, modeOf(join(dataDir, f))]))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    );
  });

  it('the CLI leaves every file it finds or creates 0600, rate-limits.db included', async () => {
    const dataDir = join(root, 'cli');
    mkdirSync(dataDir, { mode: 0o755 });
    writeFileSync(join(dataDir, 'rate-limits.db'), '', { mode: 0o644 });
    const run = await platform(dataDir, ['projections', 'rebuild', 'members']);
    expect(run.code).toBe(0);
    const files = readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['platform.db', 'rate-limits.db']));
    expect(modeOf(dataDir)).toBe('700');
    expect(Object.fromEntries(files.map((f) => [f, modeOf(join(dataDir, f))]))).toEqual(
      Object.fromEntries(files.map((f) => [f, '600'])),
    );
  });
});
