import { credentialDecider, CredentialCommand } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { fold } from '../../src/shared/domain/decider';
import { given } from '../support/decider-spec';
import {
  member_id,
  APIID,
  NEW_APIID,
  KEY,
  NEW_KEY,
  events,
  applied,
  scopeRequested,
  scopeApproved,
  commands,
} from './decider-support';

describe('expiry notices', () => {
  const expiring = (expires_at: string): CredentialEvent[] => [
    applied,
    events.approved(expires_at),
    events.claimed(APIID, KEY, expires_at),
  ];
  const note = (history: CredentialEvent[], now: string) =>
    credentialDecider.decide(
      { type: 'NoteExpiry', data: { member_id, now, reminder_days: [30, 7, 1] } },
      fold(credentialDecider, history),
    );

  it('reminds once per threshold reached, the nearest only, then tells the expiry once', () => {
    const history = expiring('2026-02-01T00:00:00.000Z');
    expect(note(history, '2025-12-01T00:00:00.000Z')).toEqual([]);
    const first = note(history, '2026-01-20T00:00:00.000Z');
    expect(first).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 30)]);
    expect(note([...history, ...first], '2026-01-21T00:00:00.000Z')).toEqual([]);
    // Twelve hours left: past the 7 and 1 day thresholds at once, reminded once, of the nearer.
    const late = note([...history, ...first], '2026-01-31T12:00:00.000Z');
    expect(late).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 1)]);
    const expired = note([...history, ...first, ...late], '2026-02-01T00:00:00.000Z');
    expect(expired).toEqual([events.expired('2026-02-01T00:00:00.000Z')]);
    expect(note([...history, ...first, ...late, ...expired], '2026-02-02T00:00:00.000Z')).toEqual([]);
  });

  it('reminds only of thresholds the key lived longer than, from when its expiry was set', () => {
    const recordedAt = (time: string, event: CredentialEvent) => ({ ...event, metadata: { time } });
    // Approved on 30 January for two days: no "7 days" nor "30 days" at the claim, one reminder a day before.
    const twoDays = [
      applied,
      recordedAt('2026-01-30T00:00:00.000Z', events.approved('2026-02-01T00:00:00.000Z')),
      events.claimed(APIID, KEY, '2026-02-01T00:00:00.000Z'),
    ] as CredentialEvent[];
    expect(note(twoDays, '2026-01-30T01:00:00.000Z')).toEqual([]);
    expect(note(twoDays, '2026-01-31T00:00:00.000Z')).toEqual([events.expiring('2026-02-01T00:00:00.000Z', 1)]);
    // Extended on 31 January to 10 February: the 7 days threshold counts again, the 30 days one does not.
    const extended = [
      ...twoDays,
      events.extensionRequested('2026-02-10T00:00:00.000Z', 'longer'),
      recordedAt('2026-01-31T00:00:00.000Z', events.extensionApproved('2026-02-10T00:00:00.000Z')),
    ] as CredentialEvent[];
    expect(note(extended, '2026-01-31T01:00:00.000Z')).toEqual([]);
    expect(note(extended, '2026-02-03T00:00:00.000Z')).toEqual([events.expiring('2026-02-10T00:00:00.000Z', 7)]);
  });
});

describe('extensions', () => {
  const expiring: CredentialEvent[] = [
    applied,
    events.approved('2026-02-01T00:00:00.000Z'),
    events.claimed(APIID, KEY, '2026-02-01T00:00:00.000Z'),
  ];
  const decide = (history: CredentialEvent[], command: CredentialCommand) =>
    credentialDecider.decide(command, fold(credentialDecider, history));
  const ask = (expires_at: string): CredentialCommand => ({
    type: 'RequestExtension',
    data: { member_id, expires_at, reason: ' project runs longer ', now: '2026-01-15T00:00:00.000Z' },
  });

  it('a later expiry is requested, then approved: the key expires then', () => {
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    expect(requested).toEqual([events.extensionRequested('2026-06-01T00:00:00.000Z', 'project runs longer')]);
    expect(() => decide([...expiring, ...requested], ask('2026-07-01T00:00:00.000Z'))).toThrow(
      expect.objectContaining({ error: 'extension_already_requested' }),
    );
    const approved = decide([...expiring, ...requested], commands.ApproveExtension);
    expect(approved).toEqual([events.extensionApproved('2026-06-01T00:00:00.000Z')]);
    expect(fold(credentialDecider, [...expiring, ...requested, ...approved]).expires_at).toBe(
      '2026-06-01T00:00:00.000Z',
    );
  });

  it('leaves the request of a credential revoked since undecided: its key is refused whatever its expiry', () => {
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    const revoked = events.revoked('leaked key');
    given(credentialDecider, [...expiring, ...requested, revoked])
      .when(commands.ApproveExtension)
      .thenRefuses('credential_not_active');
    given(credentialDecider, [...expiring, ...requested, revoked])
      .when(commands.RejectExtension)
      .thenRefuses('credential_not_active');
  });

  it('refuses an earlier expiry, and a rejection needs its reason', () => {
    expect(() => decide(expiring, ask('2026-01-20T00:00:00.000Z'))).toThrow(
      expect.objectContaining({ error: 'extension_not_later' }),
    );
    const requested = decide(expiring, ask('2026-06-01T00:00:00.000Z'));
    expect(() =>
      decide([...expiring, ...requested], { type: 'RejectExtension', data: { member_id, reason: ' ' } }),
    ).toThrow(expect.objectContaining({ error: 'invalid_reason' }));
    expect(decide([...expiring, ...requested], commands.RejectExtension)).toEqual([events.extensionRejected('no')]);
  });
});

describe('a credential past its expiry', () => {
  const EXPIRES = '2026-02-01T00:00:00.000Z';
  const AFTER = '2026-02-01T00:00:01.000Z';
  const BEFORE = '2026-01-31T23:59:59.000Z';
  const approvedUntil: CredentialEvent[] = [applied, events.approved(EXPIRES)];
  const activeUntil: CredentialEvent[] = [...approvedUntil, events.claimed(APIID, KEY, EXPIRES)];
  const at = <T extends CredentialCommand>(command: T, now: string): T => ({
    ...command,
    data: { ...command.data, now },
  });

  it('cannot be claimed once the approval ran out, and its member may apply again', () => {
    given(credentialDecider, approvedUntil)
      .when(at(commands.ClaimCredential, AFTER))
      .thenRefuses('credential_expired', `expired at ${EXPIRES}: the approval ran out before the claim, apply again`);
    given(credentialDecider, approvedUntil)
      .when(at(commands.ClaimCredential, BEFORE))
      .then([events.claimed(NEW_APIID, NEW_KEY, EXPIRES)]);
    given(credentialDecider, approvedUntil).when(at(commands.ApplyCredential, AFTER)).then([applied]);
    given(credentialDecider, approvedUntil)
      .when(at(commands.ApplyCredential, BEFORE))
      .thenRefuses('credential_already_applied');
  });

  it('issues no new key once active and expired: the member extends it or applies again', () => {
    given(credentialDecider, activeUntil)
      .when(at(commands.RotateKey, AFTER))
      .thenRefuses('credential_expired', 'ask for an extension, or apply again');
    given(credentialDecider, activeUntil).when(at(commands.ApplyCredential, AFTER)).then([applied]);
    given(credentialDecider, activeUntil)
      .when(at(commands.ApplyCredential, BEFORE))
      .thenRefuses('credential_already_applied');
    const extension = {
      type: 'RequestExtension' as const,
      data: { member_id, expires_at: '2026-06-01T00:00:00.000Z', reason: 'more time', now: AFTER },
    };
    given(credentialDecider, activeUntil)
      .when(extension)
      .then([events.extensionRequested('2026-06-01T00:00:00.000Z', 'more time')]);
  });

  it('a new application after the expiry starts over: no key, no scopes, no expiry', () => {
    const history = [...activeUntil, scopeRequested('addons.read'), scopeApproved('addons.read'), applied];
    expect(fold(credentialDecider, history)).toMatchObject({
      status: 'pending',
      apiid: null,
      key_digest: null,
      scopes: {},
      expires_at: null,
    });
  });
});
