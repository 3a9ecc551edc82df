/**
 * A realistic event log, fast: members register and live through their credential's states
 * (apply, review, claim, scopes, rotations, revocation, applying again) with the domain's own
 * deciders, a couple of thousand members at a time so that their events interleave as real
 * traffic does. Seeded, so a run can be repeated. Used by bench/rebuild.ts and the projection
 * tests that need a long log.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
// Appended with the schema versions the slices registered, installed by the composition root.
import '../src/compose';
import { toNewEvents, CommandContext, StreamEnd } from '../src/shared/commands/context';
import { formatApiId } from '../src/credential/api-key';
import { CredentialCommand, credentialDecider, CredentialState } from '../src/credential/decider';
import { CredentialEvent } from '../src/credential/events';
import { DomainEvent } from '../src/shared/domain/decider';
import { memberDecider, memberStream } from '../src/member/decider';
import { MEMBER_IDS, nextId, IdAllocated } from '../src/shared/domain/sequences';
import { SCOPE_NAMES } from '../src/credential/scopes';
import { ExpectedRevision, NewEvent } from '../src/stores/ports';
import { openDatabase, SqliteEventStore } from '../src/stores/sqlite';
import { seededRandom } from '../test/unit/stores/seeded-random';

export interface Append {
  stream: string;
  events: NewEvent[];
  expected: ExpectedRevision;
}

interface Member {
  id: number;
  username: string;
  state: CredentialState;
  /** Revision of the credential stream's last event, -1 before the first. */
  revision: number;
  /** Digest of that last event, which the next one links to. */
  digest: string | null;
  events: number;
}

const ACTIVE_MEMBERS = 2000;
// After about this many credential events a member goes quiet and a new one registers.
const EVENTS_PER_MEMBER = 14;
const START_TIME = Date.parse('2025-01-01T00:00:00.000Z');
const MEMBER_COMMANDS = new Set<CredentialCommand['type']>([
  'ApplyCredential',
  'ClaimCredential',
  'RotateKey',
  'RequestScopes',
]);

/** Appends that together hold at least `total` events, in log order. */
export function* realisticLog(total: number, seed = 1): Generator<Append> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let written = 0;
  let clock = START_TIME;
  let lastId: IdAllocated | null = null;
  let lastIdDigest: string | null = null;
  const ctx = (actor: CommandContext['actor']): CommandContext => {
    clock += 1 + Math.floor(random() * 2000);
    return { actor, requestId: `bench-${written}`, now: new Date(clock) };
  };
  const digest = (): string => createHash('sha256').update(`key-${written}-${random()}`).digest('hex');
  const randomBytes = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(random() * 256)));

  function* register(): Generator<Append, Member> {
    const allocated: IdAllocated = nextId(MEMBER_IDS, lastId);
    const id = allocated.data[MEMBER_IDS.field]!;
    const username = `member${id}`;
    const actor = { kind: 'member' as const, id };
    const idsEnd: StreamEnd = lastId
      ? { expected: id - 2, digest: lastIdDigest }
      : { expected: 'no_stream', digest: null };
    const idEvents = toNewEvents([allocated], ctx(actor), MEMBER_IDS.stream, idsEnd);
    lastIdDigest = idEvents[0]!.metadata.digest ?? null;
    yield { stream: MEMBER_IDS.stream, events: idEvents, expected: idsEnd.expected };
    lastId = allocated;
    const profile = {
      member_id: id,
      username,
      nickname: random() < 0.5 ? `Member ${id}` : null,
      email: `${username}@example.com`,
      mobile: random() < 0.3 ? `+4170${String(id).padStart(7, '0')}` : null,
      password_hash: `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`,
    };
    const registered = memberDecider.decide({ type: 'RegisterMember', data: profile }, memberDecider.initialState);
    yield {
      stream: memberStream(username),
      events: toNewEvents(registered, ctx(actor), memberStream(username), { expected: 'no_stream', digest: null }),
      expected: 'no_stream',
    };
    written += 2;
    return { id, username, state: credentialDecider.initialState, revision: -1, digest: null, events: 0 };
  }

  /** What a member or an administrator would do next with this credential. */
  function command(member: Member): CredentialCommand {
    const member_id = member.id;
    const reason = pick(['Integration with our shop', 'Nightly reporting', 'Partner portal sync', 'Policy breach']);
    switch (member.state.status) {
      case 'none':
      case 'rejected':
      case 'revoked':
        return {
          type: 'ApplyCredential',
          data: { member_id, username: member.username, now: new Date(clock).toISOString() },
        };
      case 'pending':
        return random() < 0.85
          ? { type: 'ApproveCredential', data: { member_id, expires_at: null, now: new Date().toISOString() } }
          : { type: 'RejectCredential', data: { member_id, reason } };
      case 'approved':
        return {
          type: 'ClaimCredential',
          data: {
            member_id,
            apiid: formatApiId(randomBytes(13)),
            key_digest: digest(),
            now: new Date(clock).toISOString(),
          },
        };
      case 'active': {
        const scope = pick(SCOPE_NAMES);
        const status = member.state.scopes[scope];
        const roll = random();
        if (status === 'pending') {
          return roll < 0.8
            ? { type: 'ApproveScope', data: { member_id, scope } }
            : { type: 'RejectScope', data: { member_id, scope, reason } };
        }
        if (roll < 0.1) return { type: 'RevokeCredential', data: { member_id, reason } };
        if (roll < 0.3)
          return {
            type: 'RotateKey',
            data: {
              member_id,
              key_digest: digest(),
              grace_seconds: pick([0, 3600]),
              now: new Date(clock).toISOString(),
            },
          };
        if (status === 'approved') return { type: 'RevokeScope', data: { member_id, scope, reason } };
        return { type: 'RequestScopes', data: { member_id, scopes: [scope], reason } };
      }
    }
  }

  const active: Member[] = [];
  while (written < total) {
    if (active.length < ACTIVE_MEMBERS) {
      active.push(yield* register());
      continue;
    }
    const slot = Math.floor(random() * active.length);
    const member = active[slot]!;
    const next = command(member);
    const decided = credentialDecider.decide(next, member.state) as CredentialEvent[];
    const actor = MEMBER_COMMANDS.has(next.type)
      ? { kind: 'member' as const, id: member.id }
      : { kind: 'admin' as const, id: 1 };
    const end: StreamEnd =
      member.revision < 0
        ? { expected: 'no_stream', digest: null }
        : { expected: member.revision, digest: member.digest };
    const events = toNewEvents(decided as DomainEvent[], ctx(actor), `credential-${member.id}`, end);
    yield { stream: `credential-${member.id}`, events, expected: end.expected };
    member.digest = events.at(-1)!.metadata.digest ?? null;
    member.state = decided.reduce(credentialDecider.evolve, member.state);
    member.revision += decided.length;
    member.events += decided.length;
    written += decided.length;
    if (member.events >= EVENTS_PER_MEMBER) active[slot] = yield* register();
  }
}

/**
 * Writes the log into the embedded store under `dataDir`, with durability off and many appends
 * per transaction: a scratch store for tests and benchmarks, not a way to run the service.
 * Answers the number of events written.
 */
export async function writeRealisticLog(dataDir: string, total: number, seed = 1): Promise<number> {
  const db = openDatabase(join(dataDir, 'platform.db'));
  db.pragma('synchronous = OFF');
  const store = new SqliteEventStore(db);
  let count = 0;
  // The embedded adapter appends synchronously; the outer transaction makes each a savepoint.
  const appendAll = db.transaction((appends: Append[]) =>
    appends.map(({ stream, events, expected }) => store.append(stream, events, expected)),
  );
  let chunk: Append[] = [];
  for (const append of realisticLog(total, seed)) {
    chunk.push(append);
    count += append.events.length;
    if (chunk.length === 5000) {
      await Promise.all(appendAll.immediate(chunk));
      chunk = [];
    }
  }
  await Promise.all(appendAll.immediate(chunk));
  await store.close();
  db.close();
  return count;
}
