import { auditEvent as auditEventDescribed } from '../../src/audit/event';
import { canonicalJson, sha256Hex, withoutSecrets } from '../../src/shared/domain/chain';
import { REGISTRY } from '../support/registry';
import { RecordedEvent } from '../../src/stores/ports';

/** An event as auditors read it, worded as its slice registered it. */
const auditEvent = (event: RecordedEvent, username: string | null) =>
  auditEventDescribed(event, username, (type, data) => REGISTRY.describe(type, data));

const DIGEST = 'd'.repeat(64);
const PREVIOUS = 'e'.repeat(64);

function recorded(
  type: string,
  data: Record<string, unknown>,
  metadata: Partial<RecordedEvent['metadata']> = {},
): RecordedEvent {
  return {
    type,
    data,
    metadata: { actor: { kind: 'admin', id: 3 }, request_id: 'req-1', time: '2025-03-01T10:00:00.000Z', ...metadata },
    stream: 'credential-7',
    revision: 4,
    position: '00000000000000000042',
  };
}

describe('withoutSecrets', () => {
  it('drops digests, hashes and anything named like a secret, at any depth, and keeps the rest', () => {
    const data = {
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      key_digest: DIGEST,
      previous_key_digest: PREVIOUS,
      previous_key_valid_until: null,
      password_hash: '$argon2id$v=19$...',
      nested: { webhook_secret: 's', items: [{ apiKey: 'k', name: 'kept' }] },
    };
    expect(withoutSecrets(data)).toEqual({
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      previous_key_valid_until: null,
      nested: { items: [{ name: 'kept' }] },
    });
  });
});

describe('auditEvent', () => {
  it('shows where, who, when and why, with the data in its current shape and without secrets', () => {
    // KeyRotated as written before rotation had a grace period: upcast, so the field is there.
    const stored = {
      member_id: 7,
      apiid: 'ak_aaaaaaaaaaaaaaaaaaaa',
      key_digest: DIGEST,
      previous_key_digest: PREVIOUS,
    };
    const rotated = recorded('KeyRotated', stored, { actor: { kind: 'member', id: 7 } });
    expect(auditEvent(rotated, 'alice')).toEqual({
      position: '00000000000000000042',
      stream: 'credential-7',
      revision: 4,
      type: 'KeyRotated',
      time: '2025-03-01T10:00:00.000Z',
      actor: { kind: 'member', id: 7, username: 'alice' },
      summary: 'rotated the key of API id ak_aaaaaaaaaaaaaaaaaaaa; the previous one stopped at once',
      data: { member_id: 7, apiid: 'ak_aaaaaaaaaaaaaaaaaaaa', previous_key_valid_until: null, earlier_keys: null },
      // What the chain covers: the data as written, a digest of its secrets, the version and request.
      recorded_data: { member_id: 7, apiid: 'ak_aaaaaaaaaaaaaaaaaaaa' },
      secrets: sha256Hex(canonicalJson(stored)),
      schema_version: 1,
      request_id: 'req-1',
    });
  });

  it("takes the administrator's reason from the metadata, or the event's own", () => {
    const revoked = recorded(
      'CredentialRevoked',
      { member_id: 7, reason: 'in the data' },
      { reason: 'contract ended' },
    );
    expect(auditEvent(revoked, 'root').reason).toBe('contract ended');
    const requested = recorded(
      'ScopeRequested',
      { member_id: 7, scope: 'addons.read', reason: 'list add-ons' },
      { actor: { kind: 'member', id: 7 } },
    );
    expect(auditEvent(requested, null).reason).toBe('list add-ons');
    expect(auditEvent(recorded('CredentialApproved', { member_id: 7 }), 'root')).not.toHaveProperty('reason');
  });

  it('shows an event that does not fit its schema as stored, saying why, and still without secrets', () => {
    const broken = auditEvent(recorded('CredentialClaimed', { member_id: 'seven', key_digest: DIGEST }), null);
    expect(broken).toMatchObject({
      type: 'CredentialClaimed',
      data: { member_id: 'seven' },
      invalid: expect.stringContaining('data.member_id'),
    });
    expect(JSON.stringify(broken)).not.toContain(DIGEST);
    expect(auditEvent(recorded('NoSuchEvent', { x: 1 }), null).invalid).toContain('no event of this type');
  });
});
