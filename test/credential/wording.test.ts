import { REGISTRY } from '../support/registry';

describe('how the audit trail words each event', () => {
  it.each([
    [
      'CredentialApproved',
      { member_id: 7, expires_at: '2027-01-01T00:00:00.000Z' },
      'approved the application; the key expires at 2027-01-01T00:00:00.000Z',
    ],
    ['CredentialApproved', { member_id: 7, expires_at: null }, 'approved the application; the key never expires'],
    ['CredentialClaimed', { member_id: 7, apiid: 'ak_a', expires_at: null }, 'claimed the credential, API id ak_a'],
    [
      'KeyRotated',
      { member_id: 7, apiid: 'ak_a', previous_key_valid_until: '2026-11-25T12:00:00.000Z' },
      'rotated the key of API id ak_a; the previous one stayed valid until 2026-11-25T12:00:00.000Z',
    ],
    [
      'KeyRotated',
      {
        member_id: 7,
        apiid: 'ak_a',
        previous_key_valid_until: '2026-11-25T12:00:00.000Z',
        earlier_keys: [{ valid_until: '2026-11-25T11:30:00.000Z' }, { valid_until: '2026-11-25T12:00:00.000Z' }],
      },
      'rotated the key of API id ak_a; the previous one stayed valid until 2026-11-25T12:00:00.000Z, 2 earlier ones until 2026-11-25T11:30:00.000Z and 2026-11-25T12:00:00.000Z',
    ],
    [
      'KeyRotated',
      { member_id: 7, apiid: 'ak_a', previous_key_valid_until: null, earlier_keys: [] },
      'rotated the key of API id ak_a; the previous one and every earlier one stopped at once',
    ],
    [
      'KeyRotated',
      { member_id: 7, apiid: 'ak_a', previous_key_valid_until: null, earlier_keys: null },
      'rotated the key of API id ak_a; the previous one stopped at once',
    ],
    [
      'CredentialExpiring',
      { member_id: 7, expires_at: '2027-01-01T00:00:00.000Z', days_before: 7 },
      'warned the member, 7 days ahead, that the key expires at 2027-01-01T00:00:00.000Z',
    ],
    [
      'CredentialExpiring',
      { member_id: 7, expires_at: '2027-01-01T00:00:00.000Z', days_before: 1 },
      'warned the member, 1 day ahead, that the key expires at 2027-01-01T00:00:00.000Z',
    ],
    [
      'CredentialExpired',
      { member_id: 7, expires_at: '2027-01-01T00:00:00.000Z' },
      'the key expired at 2027-01-01T00:00:00.000Z',
    ],
    [
      'ExtensionRequested',
      { member_id: 7, expires_at: '2027-02-01T00:00:00.000Z', reason: 'x' },
      'asked to move the expiry to 2027-02-01T00:00:00.000Z',
    ],
    [
      'ExtensionApproved',
      { member_id: 7, expires_at: '2027-02-01T00:00:00.000Z' },
      'approved the extension; the key expires at 2027-02-01T00:00:00.000Z',
    ],
    ['ScopeRevoked', { member_id: 7, scope: 'addons.read', reason: 'x' }, 'revoked the scope addons.read'],
    ['AddonInstalled', { key: 'helpdesk' }, 'addon installed'],
    ['PageRolesSet', {}, 'page roles set'],
  ])('words %s with the details that tell it apart', (type, data, said) => {
    expect(REGISTRY.describe(type, data)).toBe(said);
  });
});

describe('the mail a decision sends the member', () => {
  const metadata = { time: '2026-01-01T00:00:00.000Z', request_id: 'r', actor: { kind: 'admin' as const, id: 1 } };
  it.each([
    ['incomplete', 'The reason: incomplete.\n'],
    ['incomplete.', 'The reason: incomplete.\n'],
    ['incomplete...  ', 'The reason: incomplete.\n'],
  ])('ends the reason %j with one full stop', (reason, ending) => {
    const mail = REGISTRY.mailOf('CredentialRejected')!({ data: { member_id: 7, reason }, metadata });
    expect(mail.text).toContain(ending);
    expect(mail.text).not.toContain('..');
  });
});
