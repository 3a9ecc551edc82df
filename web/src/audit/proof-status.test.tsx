import { generateKeyPairSync, KeyObject, sign } from 'node:crypto';
import { fireEvent, render, screen } from '@testing-library/preact';
import { auditEvent as auditEventDescribed } from '../../../src/audit/event';
import { REGISTRY } from '../../../test/support/registry';
import { leafBytes, leafFieldsOf, leafOf } from '../../../src/audit/proof/leaf';
import { treeRoot } from '../../../src/audit/proof/merkle';
import { noteKeyOf, signedNote } from '../../../src/audit/proof/note';
import { inclusionRanges } from '../../../src/audit/proof/paths';
import { treeHeadText } from '../../../src/audit/proof/tree-head';
import { chainFieldsOf, digestOf } from '../../../src/shared/domain/chain';
import type { RecordedEvent } from '../../../src/stores/ports';
import { when } from '../ui/load';
import { envelope } from '../../test/envelope';
import { Auditor } from './auditor';

// The service's own encoding and tree build what the browser checks: the two must agree.
const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });

/** An event as the service's audit answers it, worded as its slice registered it. */
const auditEvent = (event: RecordedEvent, username: string | null) => auditEventDescribed(event, username, (type, data) => REGISTRY.describe(type, data));

const ORIGIN = 'test.example/audit';
const keys = generateKeyPairSync('ed25519');
const noteKey = noteKeyOf(ORIGIN, keys.publicKey);
const SIGNED_AT = '2026-11-27T21:30:00.000Z';

/** A chained credential stream, as the command handler appends it, read back by the audit. */
function chainedStream(): RecordedEvent[] {
  const decided = [
    { type: 'CredentialApplied', data: { member_id: 7, username: 'alice' }, actor: { kind: 'member' as const, id: 7 } },
    { type: 'ScopeRequested', data: { member_id: 7, scope: 'member-groups.read', reason: 'list groups' }, actor: { kind: 'member' as const, id: 7 } },
    { type: 'ScopeRejected', data: { member_id: 7, scope: 'member-groups.read', reason: 'staff tools only' }, actor: { kind: 'admin' as const, id: 1 } },
  ];
  let prev: string | null = null;
  return decided.map(({ type, data, actor }, revision) => {
    const metadata = { actor, request_id: `req-${revision}`, time: `2026-11-27T21:0${revision}:00.000Z`, schema_version: 1, prev_digest: prev } as RecordedEvent['metadata'];
    const event: RecordedEvent = { id: `id-${revision}`, stream: 'credential-7', revision, position: String(revision + 10).padStart(20, '0'), type, data, metadata };
    metadata.digest = prev = digestOf(chainFieldsOf(event));
    return event;
  });
}

/** The proof of the stream's last event in a log of a few other events, its checkpoint signed by `signer`. */
function proofOf(stream: RecordedEvent[], signer: KeyObject = keys.privateKey) {
  const others = Array.from({ length: 4 }, (_, i): RecordedEvent => ({ id: `other-${i}`, stream: `other-${i}`, revision: 0, position: String(i).padStart(20, '0'), type: 'PlatformSeeded', data: {}, metadata: {} as RecordedEvent['metadata'] }));
  const leaves = [...others, ...stream].map(leafOf);
  const index = leaves.length - 1;
  const text = treeHeadText({ origin: ORIGIN, size: leaves.length, root: treeRoot(leaves), time: SIGNED_AT });
  const checkpoint = signedNote(text, [{ key: noteKey, sign: (bytes) => sign(null, bytes, signer) }]);
  const audit_path = inclusionRanges(index, leaves.length).map(([lo, hi]) => treeRoot(leaves.slice(lo, hi)).toString('base64'));
  return { leaf_index: index, leaf: leafBytes(leafFieldsOf(stream.at(-1)!)).toString('base64'), audit_path, checkpoint };
}

let answers: { events: unknown[]; proof: Response };
beforeEach(() => {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname.endsWith('/audit/key')) return ok({ algorithm: 'Ed25519', verifier_key: noteKey.verifierKey });
    if (url.pathname.endsWith('/audit/proof')) return answers.proof.clone();
    return ok({ member_id: 7, username: 'alice', events: answers.events });
  }) as typeof fetch;
});

async function showHistory() {
  render(<Auditor />);
  fireEvent.input(screen.getByLabelText('Member id, username or API id'), { target: { value: '7' } });
  fireEvent.submit(screen.getByLabelText('Member id, username or API id').closest('form')!);
  return screen.findByTestId('proof-status');
}

describe("the auditor's timeline checks the history against the signed checkpoints", () => {
  it('says up to which checkpoint it verified, and when that was signed', async () => {
    const stream = chainedStream();
    answers = { events: stream.map((e) => auditEvent(e, null)), proof: ok(proofOf(stream)) };
    const status = await showHistory();
    expect(status.textContent).toBe(`Verified up to the checkpoint of 7 events, signed at ${when(SIGNED_AT)}.`);
    expect(document.querySelectorAll('em.unverified')).toHaveLength(0);
  });

  it('flags an event whose reason was changed, and only that one', async () => {
    const stream = chainedStream();
    const events = stream.map((e) => auditEvent(e, null));
    events[2] = { ...events[2]!, reason: 'no reason at all' };
    answers = { events, proof: ok(proofOf(stream)) };
    const status = await showHistory();
    expect(status.textContent).toContain('1 event does not verify: marked below.');
    const flagged = [...document.querySelectorAll('li')].filter((li) => li.querySelector('em.unverified'));
    expect(flagged.map((li) => li.textContent)).toEqual([expect.stringContaining('does not verify: its fields do not match its digest: it was changed')]);
    expect(flagged[0]!.textContent).toContain('rejected the scope member-groups.read');
  });

  it('flags the event after one taken out of the stream', async () => {
    const stream = chainedStream();
    answers = { events: [stream[0]!, stream[2]!].map((e) => auditEvent(e, null)), proof: ok(proofOf(stream)) };
    await showHistory();
    expect([...document.querySelectorAll('em.unverified')].map((em) => em.textContent)).toEqual(['does not verify: an event before it is missing']);
  });

  it('does not call a checkpoint signed by another key verified', async () => {
    const stream = chainedStream();
    answers = { events: stream.map((e) => auditEvent(e, null)), proof: ok(proofOf(stream, generateKeyPairSync('ed25519').privateKey)) };
    expect((await showHistory()).textContent).toBe('Not verified: the signed checkpoint does not hold this history: it was changed.');
  });

  it("does not call a proof verified whose leaf is not the event's own", async () => {
    const stream = chainedStream();
    const proof = proofOf(stream);
    answers = { events: stream.map((e) => auditEvent(e, null)), proof: ok({ ...proof, leaf: leafBytes(leafFieldsOf(stream[0]!)).toString('base64') }) };
    expect((await showHistory()).textContent).toBe('Not verified: the signed checkpoint does not hold this history: it was changed.');
  });

  it('says so while no checkpoint holds the events yet', async () => {
    const stream = chainedStream();
    const refused = envelope(404, { code: 404, message: 'no event has this id up to the latest checkpoint', data: { error: 'event_not_checkpointed' } });
    answers = { events: stream.map((e) => auditEvent(e, null)), proof: refused };
    expect((await showHistory()).textContent).toBe('Not verified: no signed checkpoint holds these events yet.');
  });
});
