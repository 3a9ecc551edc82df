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
const auditEvent = (event: RecordedEvent, username: string | null) =>
  auditEventDescribed(event, username, (type, data) => REGISTRY.describe(type, data));

const ORIGIN = 'test.example/audit';
const keys = generateKeyPairSync('ed25519');
const noteKey = noteKeyOf(ORIGIN, keys.publicKey);
const SIGNED_AT = '2026-11-27T21:30:00.000Z';

type Decided = { type: string; data: Record<string, unknown>; actor: { kind: 'member' | 'admin'; id: number } };

/** A chained stream, as the command handler appends it, read back by the audit: its events at these positions of the log. */
function chained(stream: string, decided: Decided[], positions: number[]): RecordedEvent[] {
  let prev: string | null = null;
  return decided.map(({ type, data, actor }, revision) => {
    const at = positions[revision]!;
    const metadata = {
      actor,
      request_id: `req-${at}`,
      time: `2026-11-27T21:${String(at).padStart(2, '0')}:00.000Z`,
      schema_version: 1,
      prev_digest: prev,
    } as RecordedEvent['metadata'];
    const event: RecordedEvent = {
      id: `id-${at}`,
      stream,
      revision,
      position: String(at).padStart(20, '0'),
      type,
      data,
      metadata,
    };
    metadata.digest = prev = digestOf(chainFieldsOf(event));
    return event;
  });
}

const alice = { kind: 'member' as const, id: 7 };
const admin = { kind: 'admin' as const, id: 1 };

/** A chained credential stream. */
function chainedStream(): RecordedEvent[] {
  const decided = [
    { type: 'CredentialApplied', data: { member_id: 7, username: 'alice' }, actor: alice },
    {
      type: 'ScopeRequested',
      data: { member_id: 7, scope: 'member-groups.read', reason: 'list groups' },
      actor: alice,
    },
    {
      type: 'ScopeRejected',
      data: { member_id: 7, scope: 'member-groups.read', reason: 'staff tools only' },
      actor: admin,
    },
  ];
  return chained('credential-7', decided, [10, 11, 12]);
}

/** The member's account stream, its events before and after the credential's in the log. */
function accountStream(): RecordedEvent[] {
  const decided = [
    {
      type: 'MemberRegistered',
      data: {
        member_id: 7,
        username: 'alice',
        nickname: null,
        email: 'alice@example.com',
        mobile: null,
        password_hash: '$argon2id$first',
      },
      actor: alice,
    },
    {
      type: 'PasswordResetByAdministrator',
      data: { member_id: 7, admin_id: 1, password_hash: '$argon2id$once' },
      actor: admin,
    },
  ];
  return chained('member-alice', decided, [9, 13]);
}

/** The proof of one event (the log's last by default) in a log of a few other events and these, its checkpoint signed by `signer`. */
function proofOf(log: RecordedEvent[], signer: KeyObject = keys.privateKey, proved = log.at(-1)!) {
  const others = Array.from({ length: 4 }, (_, i): RecordedEvent => ({
    id: `other-${i}`,
    stream: `other-${i}`,
    revision: 0,
    position: String(i).padStart(20, '0'),
    type: 'PlatformSeeded',
    data: {},
    metadata: {} as RecordedEvent['metadata'],
  }));
  const leaves = [...others, ...log].map(leafOf);
  const index = others.length + log.indexOf(proved);
  const text = treeHeadText({ origin: ORIGIN, size: leaves.length, root: treeRoot(leaves), time: SIGNED_AT });
  const checkpoint = signedNote(text, [{ key: noteKey, sign: (bytes) => sign(null, bytes, signer) }]);
  const audit_path = inclusionRanges(index, leaves.length).map(([lo, hi]) =>
    treeRoot(leaves.slice(lo, hi)).toString('base64'),
  );
  return { leaf_index: index, leaf: leafBytes(leafFieldsOf(proved)).toString('base64'), audit_path, checkpoint };
}

/** The history the service answers, and the proof of an event: one for every event, or each its own. */
let answers: { events: unknown[]; proof: Response | ((event: string) => Response) };
beforeEach(() => {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    if (url.pathname.endsWith('/audit/key')) return ok({ algorithm: 'Ed25519', verifier_key: noteKey.verifierKey });
    if (url.pathname.endsWith('/audit/proof'))
      return typeof answers.proof === 'function'
        ? answers.proof(url.searchParams.get('event')!)
        : answers.proof.clone();
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
    expect(flagged.map((li) => li.textContent)).toEqual([
      expect.stringContaining('does not verify: its fields do not match its digest: it was changed'),
    ]);
    expect(flagged[0]!.textContent).toContain('rejected the scope member-groups.read');
  });

  it('flags the event after one taken out of the stream', async () => {
    const stream = chainedStream();
    answers = { events: [stream[0]!, stream[2]!].map((e) => auditEvent(e, null)), proof: ok(proofOf(stream)) };
    await showHistory();
    expect([...document.querySelectorAll('em.unverified')].map((em) => em.textContent)).toEqual([
      'does not verify: an event before it is missing',
    ]);
  });

  it('does not call a checkpoint signed by another key verified', async () => {
    const stream = chainedStream();
    answers = {
      events: stream.map((e) => auditEvent(e, null)),
      proof: ok(proofOf(stream, generateKeyPairSync('ed25519').privateKey)),
    };
    expect((await showHistory()).textContent).toBe(
      'Not verified: the signed checkpoint does not hold this history: it was changed.',
    );
  });

  it("does not call a proof verified whose leaf is not the event's own", async () => {
    const stream = chainedStream();
    const proof = proofOf(stream);
    answers = {
      events: stream.map((e) => auditEvent(e, null)),
      proof: ok({ ...proof, leaf: leafBytes(leafFieldsOf(stream[0]!)).toString('base64') }),
    };
    expect((await showHistory()).textContent).toBe(
      'Not verified: the signed checkpoint does not hold this history: it was changed.',
    );
  });

  it('says so while no checkpoint holds the events yet', async () => {
    const stream = chainedStream();
    const refused = envelope(404, {
      code: 404,
      message: 'no event has this id up to the latest checkpoint',
      data: { error: 'event_not_checkpointed' },
    });
    answers = { events: stream.map((e) => auditEvent(e, null)), proof: refused };
    expect((await showHistory()).textContent).toBe('Not verified: no signed checkpoint holds these events yet.');
  });

  describe("a member's history: their account's stream and their credential's, interleaved in the log", () => {
    const log = [...accountStream(), ...chainedStream()].sort((a, b) => a.position.localeCompare(b.position));
    const named = (e: RecordedEvent) => auditEvent(e, e.metadata.actor.kind === 'admin' ? 'admin' : 'alice');
    const eachProved = (id: string) =>
      ok(
        proofOf(
          log,
          keys.privateKey,
          log.find((e) => e.id === id),
        ),
      );

    it("checks each stream's chain on its own and proves the newest event of each", async () => {
      answers = { events: log.map(named), proof: eachProved };
      const status = await showHistory();
      expect(status.textContent).toBe(`Verified up to the checkpoint of 9 events, signed at ${when(SIGNED_AT)}.`);
      expect(document.querySelectorAll('em.unverified')).toHaveLength(0);
      const items = [...document.querySelectorAll('li')].map((li) => li.textContent);
      expect(items[0]).toContain('registered as member 7 with the username alice');
      expect(items.at(-1)).toContain("administrator 1 reset member 7's password to a one-time password");
      expect(items.at(-1)).toContain('by administrator admin');
      expect(document.body.textContent).not.toContain('$argon2id$');
    });

    it("flags a changed account event and the link after it in the account's stream: the credential's stream still holds", async () => {
      const events = log.map(named);
      events[0] = { ...events[0]!, data: { ...events[0]!.data, email: 'mallory@example.com' } };
      answers = { events, proof: eachProved };
      const status = await showHistory();
      expect(status.textContent).toContain('2 events do not verify: marked below.');
      const flagged = [...document.querySelectorAll('li')].filter((li) => li.querySelector('em.unverified'));
      expect(flagged.map((li) => li.textContent)).toEqual([
        expect.stringContaining('registered as member 7'),
        expect.stringMatching(/reset member 7's password.*does not link to the event before it/),
      ]);
    });
  });
});
