import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Checkpoint, CHECKPOINT_STREAM } from '../../../src/audit/proof/checkpoint';
import { parseNote } from '../../../src/audit/proof/note';
import { parseTreeHead } from '../../../src/audit/proof/tree-head';
import { Run } from '../../support/cli';
import { textOf } from '../../support/audit-export';
import { activePartner, Partner } from '../../support/credentials';
import { eventually } from '../../support/eventually';
import { logInAdmin, startPlatform, TestPlatform } from '../../support/platform';
import { platformInProcess } from '../../support/cli-in-process';
import { signedCheckpoints } from './checkpoints';

// The CLI is run as an auditor would, offline, on files saved from the API; the service on the
// embedded stores of its own directory, which the CLI reads as the service does.
delete process.env.EVENTSTORE_URL;
delete process.env.MONGODB_URL;

export const API = '/api/v1';
export const REASON = 'member groups are for staff tools only';

/** One line of an export, parsed. */
export type Line = Record<string, unknown> & { type?: string; stream?: string; data?: Record<string, unknown> };

export const isRejection = (l: Line) => l.type === 'ScopeRejected';
export const copy = (lines: Line[]): Line[] => JSON.parse(JSON.stringify(lines)) as Line[];
export const lineOf = (lines: Line[], line: Line) => lines.indexOf(line) + 1;
export const rootOf = (note: string) => parseTreeHead(parseNote(note).text).root;
export const linesOf = (text: string): Line[] =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Line);

/** A refusal of the CLI: exit 1 and one line on stderr naming what does not hold. */
export function expectBroken(run: Run, line: number, what: RegExp): void {
  expect(run).toMatchObject({ code: 1, stdout: '' });
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(new RegExp(`^platform: the export does not verify: line ${line}: `));
  expect(run.stderr).toMatch(what);
}

/**
 * A service that signs checkpoints every 0.1 s, whose log holds a rejected scope request under a
 * checkpoint and an event after it, so that its export holds both kinds of line; its export as
 * the API streamed it to a logged-in auditor, and the key GET /audit/key gives. Filled in before
 * the file's tests, closed after them.
 */
export interface ProvenPlatform {
  t: TestPlatform;
  /** The data directory, which `platform` reads as the service does. */
  dir: string;
  /** Where the auditor saves exports, answers and keys. */
  files: string;
  auditor: request.Agent;
  partner: Partner;
  publicKey: string;
  exportedText: string;
  exported: Line[];
  exportText(): request.Test;
  /** Writes the text as an export file and runs `platform audit verify` on it with the API's key. */
  verifyText(text: string, name: string, key?: string): Promise<Run>;
  /** The lines, each as JSON.stringify writes it (the export's own bytes), as an export file, verified. */
  verify(lines: Line[], name: string, key?: string): Promise<Run>;
  /** The checkpoints the service signed, oldest first. */
  signedCheckpoints(): Promise<Checkpoint[]>;
}

export function provenPlatform(): ProvenPlatform {
  const dir = mkdtempSync(join(tmpdir(), 'audit-proof-'));
  const files = mkdtempSync(join(tmpdir(), 'audit-proof-files-'));
  const p = {
    dir,
    files,
    exportText: () =>
      p.auditor.get(`${API}/audit/events`).query({ limit: 10_000 }).buffer(true).parse(textOf).expect(200),
    verifyText(text: string, name: string, key = p.publicKey): Promise<Run> {
      const file = join(files, `${name}.ndjson`);
      writeFileSync(file, text);
      writeFileSync(join(files, `${name}.key`), key);
      return platformInProcess(dir, ['audit', 'verify', file, '--public-key', join(files, `${name}.key`)]);
    },
    verify: (lines: Line[], name: string, key?: string) =>
      p.verifyText(lines.map((l) => `${JSON.stringify(l)}\n`).join(''), name, key),
    signedCheckpoints: () => signedCheckpoints(p.t.platform.stores.events),
  } as ProvenPlatform;

  beforeAll(async () => {
    p.t = await startPlatform({ AUDIT_CHECKPOINT_SECONDS: 0.1 }, dir);
    p.partner = await rejectedScopeRequest(p.t);
    // A checkpoint over the rejection, and one more event after it, so the export holds both kinds.
    await checkpointOver(p, (await p.t.allEvents()).find((e) => e.type === 'ScopeRejected')!.position);
    p.auditor = p.t.client();
    await logInAdmin(p.auditor);
    p.publicKey = (await p.auditor.get(`${API}/audit/key`).expect(200)).body.data.public_key as string;
    p.exportedText = (await p.exportText()).body as string;
    p.exported = linesOf(p.exportedText);
    // Then the log at rest, each event under a checkpoint: the latest checkpoint a test reads stays the latest.
    const events = (await p.t.allEvents()).filter((e) => e.stream !== CHECKPOINT_STREAM);
    await checkpointOver(p, events.at(-1)!.position);
    // The API serves checkpoints from its read model, a moment behind the log: the tests start once it serves the latest.
    await eventually(
      async () => {
        const served = await p.auditor.get(`${API}/audit/checkpoint`).buffer(true).parse(textOf);
        return served.body === (await p.signedCheckpoints()).at(-1)!.note;
      },
      { within: 10_000, what: 'the latest signed checkpoint served by GET /audit/checkpoint' },
    );
  });
  afterAll(async () => {
    await p.t.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });
  return p;
}

async function checkpointOver(p: ProvenPlatform, position: string): Promise<void> {
  await eventually(async () => (await p.signedCheckpoints()).some((c) => String(c.position) >= position), {
    within: 10_000,
    what: `a checkpoint over position ${position}`,
  });
}

/** A partner whose request for member-groups.read an administrator rejected, for REASON. */
async function rejectedScopeRequest(t: TestPlatform): Promise<Partner> {
  const partner = await activePartner(t, ['addons.read']);
  const { developer, member, admin, adminToken } = partner;
  await developer
    .post(`${API}/developer/scopes`)
    .set('X-CSRF-Token', member.token)
    .send({ scopes: ['member-groups.read'], reason: 'list groups' })
    .expect(200);
  await admin
    .post(`${API}/credentials/${member.id}/scopes/member-groups.read/reject`)
    .set('X-CSRF-Token', adminToken)
    .send({ reason: REASON })
    .expect(200);
  return partner;
}
