import request from 'supertest';
import { BATCH_SIZE } from '../../../src/audit/export';
import { decideCredential } from '../../../src/credential/commands';
import { RecordedEvent, START, Stores } from '../../../src/stores/ports';
import { textOf } from '../../support/audit-export';
import { ContractChecker } from '../../support/contract';
import { activePartner, rotate } from '../../support/credentials';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

const EXPORT = '/api/v1/audit/events';

let t: TestPlatform;
let auditor: request.Agent;
/** How many events each readAll of the export asked the event store for. */
const reads: number[] = [];
/**
 * Whether a read of the global log fails as a broken store would. The mail, digest and webhook
 * notifiers read the same log in the background (100 and 200 events at a time), so a failure
 * picked by its place in the order of reads could hit one of theirs, or the export's first read.
 */
let failing: (from: string, maxCount: number) => boolean = () => false;
/** The clear API keys issued, claimed and rotated. */
const keys: string[] = [];

/** Counts the export's reads of the global log, to see that it reads in batches as it streams. */
function countingReads(stores: Stores): Stores {
  const { events } = stores;
  const readAll = events.readAll.bind(events);
  events.readAll = async (from, maxCount) => {
    reads.push(maxCount);
    if (failing(from, maxCount)) throw new Error('the event store went away');
    return readAll(from, maxCount);
  };
  return stores;
}

/** The signed head's own fields, checked by the verifier (test/audit/http/audit-proof.test.ts). */
const signedHead = {
  root: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
  lines: expect.stringMatching(/^[0-9a-f]{64}$/),
  signed_at: expect.any(String),
  note: expect.stringMatching(
    /\/export\nfrom "[^"]*"\nnext "[^"]*"\ncount \d+\nmore (true|false)\nroot \S+\nlines [0-9a-f]{64}\ntime \S+\n\n\u2014 \S+ \S+\n$/,
  ),
};

interface Line {
  position?: string;
  type?: string;
  next?: string;
  count?: number;
  more?: boolean;
}

/** An NDJSON body as a list of parsed lines. */
function linesOf(text: string): Line[] {
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

/** GET /audit/events with its body as text, whatever the content type. */
function exportFrom(query: Record<string, string | number>) {
  return auditor.get(EXPORT).query(query).buffer(true).parse(textOf);
}

beforeAll(async () => {
  t = await startPlatform({}, undefined, countingReads);
  auditor = t.client();
  await logInAdmin(auditor);
  // Secrets of every kind in the log: password hashes of members and administrators, key digests.
  const partner = await activePartner(t, ['addons.read']);
  keys.push(partner.apikey, await rotate(partner, { grace_seconds: 60 }));
  // Enough events for several batches and more than the default limit.
  const ctx = { actor: { kind: 'cli' as const, id: 'test' }, requestId: 'test', now: new Date() };
  // A hundred at once: each stream is its own, and one sync of the log then covers many commits.
  for (let first = 1; first <= 1100; first += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        decideCredential(
          t.platform.stores.events,
          {
            type: 'ApplyCredential',
            data: { member_id: 100_000 + first + n, username: `bulk${first + n}`, now: ctx.now.toISOString() },
          },
          ctx,
        ),
      ),
    );
  }
});
afterAll(() => t.close());

describe('GET /audit/events', () => {
  it('streams every event of the log as NDJSON, then the position to resume from', async () => {
    const log = await t.allEvents();
    reads.length = 0;
    const res = await exportFrom({ limit: 10_000 }).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    // Streamed: no length known in advance, written chunk by chunk, and read from the log in batches.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(reads.length).toBeGreaterThan(1);
    expect(Math.max(...reads)).toBeLessThanOrEqual(BATCH_SIZE);

    // Every line, the end line included, fits the line schema the contract gives for this stream.
    expect(
      new ContractChecker(t.platform.endpoints).problems(
        'GET',
        '/audit/events',
        200,
        String(res.headers['content-type']),
        res.body,
      ),
    ).toEqual([]);

    const lines = linesOf(res.body as string);
    const end = lines.pop()!;
    expect(end).toEqual({ next: log.at(-1)!.position, count: log.length, more: false, from: '', ...signedHead });
    expect(lines.map((l) => l.position)).toEqual(log.map((e) => e.position));
    expect(lines[0]).toEqual({
      position: log[0]!.position,
      stream: log[0]!.stream,
      revision: 0,
      type: log[0]!.type,
      time: log[0]!.metadata.time,
      actor: { kind: 'system', id: 'seed', username: null },
      summary: expect.any(String),
      data: expect.any(Object),
      id: log[0]!.id,
      schema_version: 1,
      request_id: log[0]!.metadata.request_id,
      digest: log[0]!.metadata.digest,
      prev_digest: null,
    });
  });

  it('resumes from the position it gave, with no event missing or repeated', async () => {
    const log = await t.allEvents();
    const from = log[10]!.position;
    const first = linesOf((await exportFrom({ from, limit: 250 }).expect(200)).body as string);
    const firstEnd = first.pop()!;
    expect(firstEnd).toEqual({
      next: log[260]!.position,
      count: 250,
      more: true,
      from: log[10]!.position,
      ...signedHead,
    });

    const rest = linesOf((await exportFrom({ from: firstEnd.next!, limit: 10_000 }).expect(200)).body as string);
    const restEnd = rest.pop()!;
    expect(restEnd).toEqual({
      next: log.at(-1)!.position,
      count: log.length - 261,
      more: false,
      from: log[260]!.position,
      ...signedHead,
    });
    expect([...first, ...rest].map((l) => l.position)).toEqual(log.slice(11).map((e) => e.position));

    // At the head of the log: nothing more, and the same position to come back with later.
    const head = linesOf((await exportFrom({ from: restEnd.next! }).expect(200)).body as string);
    expect(head).toEqual([{ next: restEnd.next, count: 0, more: false, from: restEnd.next, ...signedHead }]);
  });

  it('answers 1000 events unless told otherwise', async () => {
    const log = await t.allEvents();
    expect(log.length).toBeGreaterThan(1000);
    const lines = linesOf((await exportFrom({}).expect(200)).body as string);
    expect(lines).toHaveLength(1001);
    expect(lines.at(-1)).toEqual({ next: log[999]!.position, count: 1000, more: true, from: '', ...signedHead });
  });

  it('never holds a password hash, a key digest or a key', async () => {
    const log: RecordedEvent[] = await t.platform.stores.events.readAll(START, 100_000);
    const secrets = log
      .flatMap((e) => [e.data.password_hash, e.data.key_digest, e.data.previous_key_digest])
      .filter((s) => typeof s === 'string');
    expect(log.filter((e) => e.type === 'MemberRegistered' || e.type === 'AdminCreated').length).toBeGreaterThanOrEqual(
      2,
    );
    expect(secrets.length).toBeGreaterThanOrEqual(5);

    const text = (await exportFrom({ limit: 10_000 }).expect(200)).body as string;
    for (const secret of [...secrets, ...keys, 'key_digest', 'password', '$argon2']) expect(text).not.toContain(secret);
  });

  it('cuts the body short when the store fails midway: no end line, the connection aborted, the failure logged', async () => {
    // The export's second batch: after its first one, read from the start, and as large as its batches are.
    failing = (from, maxCount) => from !== START && maxCount === BATCH_SIZE;
    try {
      await expect(exportFrom({ limit: 10_000 })).rejects.toThrow();
    } finally {
      failing = () => false;
    }
    expect(
      t.logLines.some(
        (line) => line.includes('audit export failed midway') && line.includes('the event store went away'),
      ),
    ).toBe(true);
  });

  it('refuses a limit outside 1 to 10000 and a from it cannot read, before streaming anything', async () => {
    for (const limit of ['0', '10001', 'ten', '-1', '1.5']) {
      const res = await expectRefusal(t, () => auditor.get(EXPORT).query({ limit }), 422, 'validation_failed');
      expect(res.body.data.issues).toEqual([
        { path: 'limit', message: 'limit must be a whole number from 1 to 10000' },
      ]);
    }
    await expectRefusal(t, () => auditor.get(EXPORT).query({ from: '' }), 422, 'validation_failed');
    await expectRefusal(t, () => auditor.get(EXPORT).query({ from: 'x'.repeat(101) }), 422, 'validation_failed');
    // Well formed, but past the last event: no export gave it, and its end line would repeat it as `next`.
    const head = (await t.allEvents()).at(-1)!.position;
    const past = head.replace(/\d+$/, (digits) => (BigInt(digits) + 1000n).toString().padStart(digits.length, '0'));
    for (const from of ['garbage', '12', '00000000000000000001:00000000000000000001', past]) {
      const res = await expectRefusal(t, () => auditor.get(EXPORT).query({ from }), 422, 'invalid_position');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});
