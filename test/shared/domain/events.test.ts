import { decodeEvent, InvalidEvent, schemaVersion } from '../../../src/shared/domain/events';
import { evolveOrExplain, Projection } from '../../../src/shared/projections/projection';
import { EventMetadata } from '../../../src/shared/domain/metadata';
import { RecordedEvent } from '../../../src/stores/ports';

const DIGEST = 'd'.repeat(64);
const PREVIOUS_DIGEST = 'e'.repeat(64);
const metadata: EventMetadata = {
  actor: { kind: 'member', id: 7 },
  request_id: 'req-1',
  time: '2025-03-01T10:00:00.000Z',
};

function recorded(type: string, data: Record<string, unknown>, meta: Partial<EventMetadata> = {}): RecordedEvent {
  return {
    type,
    data,
    metadata: { ...metadata, ...meta },
    stream: 'credential-7',
    revision: 3,
    position: '00000000000000000042',
  };
}

/** KeyRotated as it was written before rotation had a grace period. */
const keyRotatedV1 = {
  member_id: 7,
  apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
  key_digest: DIGEST,
  previous_key_digest: PREVIOUS_DIGEST,
};

function invalid(event: RecordedEvent): InvalidEvent {
  try {
    decodeEvent(event);
  } catch (err) {
    if (err instanceof InvalidEvent) return err;
    throw err;
  }
  throw new Error(`${event.type} decoded, but it should have been refused`);
}

describe('decoding stored events', () => {
  it('answers a valid event as it was stored, marked with the current schema version', () => {
    const event = recorded(
      'ScopeRequested',
      { member_id: 7, scope: 'addons.read', reason: 'sync' },
      { schema_version: 1 },
    );
    expect(decodeEvent(event)).toEqual(event);
  });

  it('reads an event written before versions existed as version 1', () => {
    const event = recorded('ScopeRequested', { member_id: 7, scope: 'addons.read', reason: 'sync' });
    expect(decodeEvent(event).metadata.schema_version).toBe(1);
  });

  it('drops fields the current shape does not have', () => {
    const decoded = decodeEvent(recorded('CredentialApproved', { member_id: 7, leftover: true }));
    // Version 1 of the approval, from before keys expired: upcast to a key that never does, approved
    // by an administrator (no rule).
    expect(decoded.data).toEqual({ member_id: 7, expires_at: null, rule: null });
  });

  it('reads an administrator created before administrators had an email as one without: mailed nothing', () => {
    const v1 = { admin_id: 2, username: 'reviewer', is_super: true, role_id: null, password_hash: '$argon2id$x' };
    const decoded = decodeEvent(recorded('AdminCreated', v1));
    expect(decoded.data).toEqual({ ...v1, email: null });
    expect(decoded.metadata.schema_version).toBe(2);
  });

  it('refuses data that breaks its schema, naming the type, stream, position and every issue', () => {
    const err = invalid(recorded('CredentialClaimed', { member_id: '7', apiid: 'ak_aaaaaaaaaaaaaaaaaaaa' }));
    expect(err).toMatchObject({ type: 'CredentialClaimed', stream: 'credential-7', position: '00000000000000000042' });
    expect(err.issues.map((i) => i.path)).toEqual([
      ['data', 'member_id'],
      ['data', 'key_digest'],
    ]);
    expect(err.message).toMatch(
      /^event CredentialClaimed #3 of credential-7 at position 00000000000000000042 is invalid: /,
    );
    expect(err.message).toContain('data.member_id: ');
    expect(err.message).toContain('data.key_digest: ');
  });

  it('never quotes the stored values, so a key digest cannot leak through the error', () => {
    const err = invalid(recorded('KeyRotated', { ...keyRotatedV1, member_id: 0 }, { schema_version: 3 }));
    expect(err.issues.map((i) => i.path)).toEqual([
      ['data', 'member_id'],
      ['data', 'previous_key_valid_until'],
      ['data', 'earlier_keys'],
    ]);
    expect(err.message).not.toContain(DIGEST);
    expect(err.message).not.toContain(PREVIOUS_DIGEST);
  });

  it('refuses metadata that breaks its schema', () => {
    const err = invalid(
      recorded('CredentialApproved', { member_id: 7 }, { actor: { kind: 'robot' as 'cli', id: 1 }, time: 'yesterday' }),
    );
    expect(err.issues.map((i) => i.path)).toEqual([
      ['metadata', 'actor', 'kind'],
      ['metadata', 'time'],
    ]);
  });

  it('refuses an event type this service does not know: whatever folds it would go wrong', () => {
    const err = invalid(recorded('CredentialFrozen', { member_id: 7 }));
    expect(err.issues).toEqual([{ path: ['type'], message: expect.stringContaining('no event of this type') }]);
  });

  it('refuses a version newer than the code knows, rather than guess at its shape', () => {
    const err = invalid(
      recorded(
        'KeyRotated',
        { ...keyRotatedV1, previous_key_valid_until: null, earlier_keys: [] },
        { schema_version: 4 },
      ),
    );
    expect(err.issues[0]!.path).toEqual(['metadata', 'schema_version']);
  });
});

describe('upcasting KeyRotated: version 1 (no grace period), version 2 (no decision on earlier keys), version 3', () => {
  it.each([
    ['without a schema version', {}],
    ['marked version 1', { schema_version: 1 }],
  ])(
    'reads a version 1 event %s as version 3: the previous key stopped at once, earlier keys undecided',
    (_label, meta) => {
      const decoded = decodeEvent(recorded('KeyRotated', keyRotatedV1, meta));
      expect(decoded.data).toEqual({ ...keyRotatedV1, previous_key_valid_until: null, earlier_keys: null });
      expect(decoded.metadata.schema_version).toBe(3);
    },
  );

  it('keeps the grace period of a rotation stored before versions were recorded', () => {
    const unversioned = { ...keyRotatedV1, previous_key_valid_until: '2025-03-01T11:00:00.000Z' };
    expect(decodeEvent(recorded('KeyRotated', unversioned)).data).toEqual({ ...unversioned, earlier_keys: null });
  });

  it('reads a version 2 event as one that left every earlier key its own grace period', () => {
    const v2 = { ...keyRotatedV1, previous_key_valid_until: '2025-03-01T11:00:00.000Z' };
    expect(decodeEvent(recorded('KeyRotated', v2, { schema_version: 2 })).data).toEqual({ ...v2, earlier_keys: null });
  });

  it('leaves a version 3 event as it is', () => {
    const v3 = {
      ...keyRotatedV1,
      previous_key_valid_until: '2025-03-01T11:00:00.000Z',
      earlier_keys: [{ digest: 'f'.repeat(64), valid_until: '2025-03-01T10:30:00.000Z' }],
    };
    expect(decodeEvent(recorded('KeyRotated', v3, { schema_version: 3 })).data).toEqual(v3);
  });

  it('appends new events at the current version', () => {
    expect(schemaVersion('KeyRotated')).toBe(3);
    expect(schemaVersion('CredentialApplied')).toBe(2);
    expect(schemaVersion('ScopeRequested')).toBe(1);
    expect(() => schemaVersion('CredentialFrozen')).toThrow(/no schema for event type CredentialFrozen/);
  });
});

describe('projections apply decoded events', () => {
  const seen: Projection<{ data: Record<string, unknown> }> = {
    name: 'seen',
    version: 1,
    collection: { name: 'seen', indexes: [] },
    handles: ['KeyRotated', 'CredentialApproved'],
    documentIds: (event) => [event.stream],
    evolve: (_doc, event) => ({ data: event.data as Record<string, unknown> }),
  };

  it('hands evolve the current shape of an old event', () => {
    expect(evolveOrExplain(seen, null, recorded('KeyRotated', keyRotatedV1))).toEqual({
      data: { ...keyRotatedV1, previous_key_valid_until: null, earlier_keys: null },
    });
  });

  it('refuses an invalid event, naming the projection, the event and its position', () => {
    expect(() => evolveOrExplain(seen, null, recorded('CredentialApproved', {}))).toThrow(
      /^projection seen cannot apply CredentialApproved at 00000000000000000042: InvalidEvent: .*data\.member_id/,
    );
  });
});
