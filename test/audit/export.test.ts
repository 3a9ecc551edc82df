import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorNames } from '../../src/audit/actor-names';
import { auditExport, ExportLine } from '../../src/audit/export';
import { EventStore, InvalidPosition, START, Stores } from '../../src/stores/ports';
import { openSqliteStores } from '../../src/stores/sqlite';
import { loadSigningKey } from '../../src/audit/proof/signing-key';
import { REGISTRY } from '../support/registry';

const wording = (type: string, data: Record<string, unknown>) => REGISTRY.describe(type, data);

const EVENTS = 1000;

let dir: string;
let stores: Stores;
let positions: string[];
/** The maxCount of each read of the global log. */
let reads: number[];
let events: EventStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
  stores = openSqliteStores(dir);
  const metadata = {
    actor: { kind: 'system' as const, id: 'test' },
    request_id: 'test',
    time: '2025-03-01T10:00:00.000Z',
  };
  for (let i = 0; i < EVENTS; i++)
    await stores.events.append(`test-${i % 7}`, [{ type: 'PlatformSeeded', data: {}, metadata }], 'any');
  positions = (await stores.events.readAll(START, EVENTS + 1)).map((e) => e.position);
  events = stores.events;
  const readAll = events.readAll.bind(events);
  events.readAll = (from, maxCount) => {
    reads.push(maxCount);
    return readAll(from, maxCount);
  };
});
beforeEach(() => {
  reads = [];
});
afterAll(async () => {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = loadSigningKey(join(mkdtempSync(join(tmpdir(), 'audit-key-')), 'key.pem'), {
  create: true,
  origin: 'test.example/audit',
});
const names = () => new ActorNames({ member: async () => null, admin: async () => null });

/** The export's lines, parsed; each line as sent ends in its newline. */
async function exportAll(from: string, limit: number): Promise<Record<string, unknown>[]> {
  const lines: ExportLine[] = [];
  for await (const line of await auditExport(events, names(), wording, from, limit, key)) lines.push(line);
  expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('auditExport', () => {
  it('ends with where to resume and whether the log goes on, at every boundary of limit and batch', async () => {
    const cases: [limit: number, from: number, count: number, more: boolean][] = [
      [EVENTS, -1, EVENTS, false],
      [EVENTS - 1, -1, EVENTS - 1, true],
      [500, -1, 500, true],
      [1, -1, 1, true],
      [10_000, -1, EVENTS, false],
      [500, 499, 500, false],
      [10, EVENTS - 1, 0, false],
    ];
    for (const [limit, fromIndex, count, more] of cases) {
      const from = fromIndex === -1 ? START : positions[fromIndex]!;
      const lines = await exportAll(from, limit);
      const end = lines.pop();
      const next = count === 0 ? from : positions[fromIndex + count]!;
      expect({ limit, fromIndex, end }).toEqual({
        limit,
        fromIndex,
        end: expect.objectContaining({ next, count, more, from }),
      });
      expect(lines.map((l) => (l as { position: string }).position)).toEqual(
        positions.slice(fromIndex + 1, fromIndex + 1 + count),
      );
    }
  });

  it('reads the log in batches only as lines are pulled', async () => {
    const lines = await auditExport(events, names(), wording, START, 10_000, key);
    expect(reads).toEqual([500]);
    for (let i = 0; i < 500; i++) await lines.next();
    expect(reads).toEqual([500]);
    await lines.next();
    expect(reads).toEqual([500, 500]);
    await lines.return(undefined);
  });

  it('refuses a position the store cannot read before any line', async () => {
    await expect(auditExport(events, names(), wording, 'garbage', 10, key)).rejects.toBeInstanceOf(InvalidPosition);
  });
});
