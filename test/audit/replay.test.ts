import { CredentialEvent } from '../../src/credential/events';
import { credentialsProjection } from '../../src/credential/projections/credentials';
import { eventsUntil, replayCredential } from '../../src/audit/replay';
import { evolveOrExplain } from '../../src/shared/projections/projection';
import { RecordedEvent } from '../../src/stores/ports';

/** 10:mm on a fixed day, so that times read as minutes. */
const at = (minute: number): string => new Date(Date.UTC(2025, 2, 1, 10, minute)).toISOString();

/** Member 1's credential stream, as the event store records it, one event at each given minute. */
function stream(
  ...entries: [minute: number, event: Omit<CredentialEvent, 'data'> & { data: object }][]
): RecordedEvent[] {
  return entries.map(([minute, event], revision) => ({
    type: event.type,
    data: { member_id: 1, ...event.data },
    metadata: { actor: { kind: 'admin', id: 1 }, request_id: `req-${revision}`, time: at(minute) },
    stream: 'credential-1',
    revision,
    position: String(revision + 1).padStart(20, '0'),
  }));
}

const life = stream(
  [0, { type: 'CredentialApplied', data: { username: 'alice' } }],
  [1, { type: 'CredentialApproved', data: {} }],
  [2, { type: 'CredentialClaimed', data: { apiid: 'ak_aaaaaaaaaaaaaaaaaaaa', key_digest: 'd'.repeat(64) } }],
  [3, { type: 'ScopeRequested', data: { scope: 'addons.read', reason: 'list add-ons' } }],
  [4, { type: 'ScopeApproved', data: { scope: 'addons.read' } }],
  [6, { type: 'CredentialRevoked', data: { reason: 'contract ended' } }],
);

describe('eventsUntil', () => {
  it('keeps the events recorded at or before the instant, whatever zone the instant is written in', () => {
    expect(eventsUntil(life, at(4)).map((e) => e.type)).toEqual([
      'CredentialApplied',
      'CredentialApproved',
      'CredentialClaimed',
      'ScopeRequested',
      'ScopeApproved',
    ]);
    expect(eventsUntil(life, '2025-03-01T12:05:00+02:00')).toHaveLength(5);
    expect(eventsUntil(life, at(6))).toEqual(life);
    expect(eventsUntil(life, '2025-03-01T09:59:59.999Z')).toEqual([]);
  });

  it('is a prefix of the stream: an event recorded earlier by a clock that ran behind is not replayed out of turn', () => {
    const skewed = stream(
      [0, { type: 'CredentialApplied', data: { username: 'alice' } }],
      [5, { type: 'CredentialApproved', data: {} }],
      [4, { type: 'CredentialClaimed', data: { apiid: 'ak_aaaaaaaaaaaaaaaaaaaa', key_digest: 'd'.repeat(64) } }],
    );
    expect(eventsUntil(skewed, at(4)).map((e) => e.type)).toEqual(['CredentialApplied']);
  });
});

describe('replayCredential', () => {
  const replayAt = (minute: number) => replayCredential(eventsUntil(life, at(minute)));

  it('is null before the first application', () => {
    expect(replayCredential([])).toBeNull();
  });

  it('answers pending, then active with the scope approved, then revoked with the scope', () => {
    expect(replayAt(0)).toMatchObject({ status: 'pending', applied_at: at(0), reviewed_at: null, scopes: [] });
    expect(replayAt(5)).toMatchObject({
      status: 'active',
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      claimed_at: at(2),
      scopes: [expect.objectContaining({ name: 'addons.read', status: 'approved', reviewed_at: at(4) })],
    });
    expect(replayAt(6)).toMatchObject({
      status: 'revoked',
      revoke_reason: 'contract ended',
      scopes: [expect.objectContaining({ name: 'addons.read', status: 'revoked', revoked_at: at(6) })],
    });
  });

  it('answers what the credentials read model holds after the same events', () => {
    const live = life.reduce<ReturnType<typeof replayCredential>>(
      (doc, event) => evolveOrExplain(credentialsProjection, doc, event),
      null,
    );
    expect(replayCredential(life)).toEqual(live);
  });

  it('never holds the key digest', () => {
    expect(JSON.stringify(replayCredential(life))).not.toContain('d'.repeat(64));
  });
});
