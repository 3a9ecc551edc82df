/**
 * What validating events on read costs a rebuild: a credential life per member, folded through
 * every projection in memory, once with `evolve` alone and once through `evolveOrExplain`, which
 * upcasts and validates each event first. No store: this isolates the CPU cost from the I/O.
 * Run: node -r ./test/support/load-ts.js bench/event-decoding.ts [members]
 */
import { PROJECTIONS } from '../src/compose';
import { decodeEvent } from '../src/shared/domain/events';
import { documentsOf, evolveOrExplain, Projection } from '../src/shared/projections/projection';
import { RecordedEvent } from '../src/stores/ports';

function credentialLives(members: number): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const append = (stream: string, type: string, data: Record<string, unknown>, schema_version = 1) =>
    events.push({
      stream,
      type,
      data,
      revision: 0,
      position: String(events.length + 1).padStart(20, '0'),
      metadata: {
        actor: { kind: 'admin', id: 1 },
        request_id: 'bench',
        time: '2025-03-01T10:00:00.000Z',
        schema_version,
      },
    });
  for (let member_id = 1; member_id <= members; member_id++) {
    const username = `user${member_id}`;
    append(`member-${username}`, 'MemberRegistered', {
      member_id,
      username,
      nickname: null,
      email: `${username}@example.com`,
      mobile: null,
      password_hash: '$argon2id$bench',
    });
    const stream = `credential-${member_id}`;
    append(stream, 'CredentialApplied', { member_id, username });
    append(stream, 'CredentialApproved', { member_id });
    append(stream, 'CredentialClaimed', { member_id, apiid: `ak_${member_id}`, key_digest: 'a'.repeat(64) });
    append(stream, 'ScopeRequested', { member_id, scope: 'addons.read', reason: 'sync' });
    append(stream, 'ScopeRequested', { member_id, scope: 'member-groups.read', reason: 'sync' });
    append(stream, 'ScopeApproved', { member_id, scope: 'addons.read' });
    append(stream, 'ScopeRejected', { member_id, scope: 'member-groups.read', reason: 'no' });
    const rotated = {
      member_id,
      apiid: `ak_${member_id}`,
      key_digest: 'b'.repeat(64),
      previous_key_digest: 'a'.repeat(64),
    };
    append(stream, 'KeyRotated', { ...rotated, previous_key_valid_until: null }, 2);
  }
  return events;
}

type Apply = (projection: Projection, doc: object | null, event: RecordedEvent) => object | null;

/** Seconds to fold every event into every projection's documents, held in maps. */
function fold(events: RecordedEvent[], apply: Apply): number {
  const docs = new Map(PROJECTIONS.map((p) => [p.name, new Map<string, object>()]));
  const started = performance.now();
  for (const event of events) {
    for (const projection of PROJECTIONS) {
      const mine = docs.get(projection.name)!;
      for (const id of documentsOf(projection, event)) {
        const doc = apply(projection, mine.get(id) ?? null, event);
        if (doc) mine.set(id, doc);
        else mine.delete(id);
      }
    }
  }
  return (performance.now() - started) / 1000;
}

function main(members: number): void {
  const events = credentialLives(members);
  for (let round = 1; round <= 3; round++) {
    const bare = fold(events, (p, doc, e) => p.evolve(doc, e));
    const decoded = fold(events, evolveOrExplain);
    const started = performance.now();
    for (const event of events) decodeEvent(event);
    const decodeOnce = (performance.now() - started) / 1000;
    const µs = (seconds: number) => ((seconds / events.length) * 1e6).toFixed(2);
    process.stdout.write(
      `round ${round}: ${events.length} events; decodeEvent ${µs(decodeOnce)} µs; evolve alone ${Math.round(events.length / bare)} events/s, ` +
        `with decoding ${Math.round(events.length / decoded)} events/s (+${µs(decoded - bare)} µs an event)\n`,
    );
  }
}

main(Number(process.argv[2] ?? 6000));
