import { credentialDecider, CredentialCommand } from '../../../src/credential/decider';
import { CredentialEvent } from '../../../src/credential/events';
import { given } from '../../support/decider-spec';
import { credentialEvents } from '../fixtures';

const member_id = 7;
const APIID = 'ak_aaaaaaaaaaaaaaaaaaaa';
const KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);
const URL = 'https://github.com/octo/repo/blob/1/.env';
const events = credentialEvents(member_id);
const active = [events.applied('alice'), events.approved(), events.claimed(APIID, KEY)];

const report = (
  key_digest: string,
  { action = 'quarantine', now = '2025-03-01T10:00:00.000Z', url = URL } = {},
): CredentialCommand => ({
  type: 'ReportKeyLeak',
  data: {
    member_id,
    apiid: APIID,
    key_digest,
    url,
    source: 'content',
    note: null,
    action: action as 'quarantine' | 'notify',
    now,
  },
});

const reported = (key_digest: string, accepted: boolean, quarantined = accepted, url = URL): CredentialEvent => ({
  type: 'KeyLeakReported',
  data: {
    member_id,
    apiid: APIID,
    key_digest,
    key_fingerprint: key_digest.slice(0, 8),
    url,
    source: 'content',
    note: null,
    accepted,
    quarantined,
  },
});

describe('a key reported found in public', () => {
  it('quarantines the current key of an active credential', () => {
    given(credentialDecider, active)
      .when(report(KEY))
      .then([reported(KEY, true)]);
  });

  it('only tells when LEAKED_KEY_ACTION is notify', () => {
    given(credentialDecider, active)
      .when(report(KEY, { action: 'notify' }))
      .then([reported(KEY, true, false)]);
  });

  it('quarantines a rotated-away key still in its grace period, and records one whose grace has ended', () => {
    const rotated = [...active, events.rotated(APIID, NEW_KEY, KEY, '2025-03-01T11:00:00.000Z')];
    given(credentialDecider, rotated)
      .when(report(KEY))
      .then([reported(KEY, true)]);
    given(credentialDecider, rotated)
      .when(report(KEY, { now: '2025-03-01T12:00:00.000Z' }))
      .then([reported(KEY, false)]);
  });

  it('records without quarantine the key of a revoked or expired credential', () => {
    given(credentialDecider, [...active, events.revoked('abuse')])
      .when(report(KEY))
      .then([reported(KEY, false)]);
    const expiring = [events.applied('alice'), events.approved('2025-02-01T00:00:00.000Z')];
    given(credentialDecider, [...expiring, events.claimed(APIID, KEY, '2025-02-01T00:00:00.000Z')])
      .when(report(KEY))
      .then([reported(KEY, false)]);
  });

  it('records the same key found at the same place once, and again when found somewhere else', () => {
    const once = [...active, reported(KEY, true)];
    given(credentialDecider, once).when(report(KEY)).then([]);
    const elsewhere = 'https://gist.github.com/octo/1';
    given(credentialDecider, once)
      .when(report(KEY, { url: elsewhere }))
      .then([reported(KEY, true, true, elsewhere)]);
  });

  it('remembers what was reported across a new application', () => {
    const reapplied = [...active, reported(KEY, true), events.revoked('leaked'), events.applied('alice')];
    given(credentialDecider, reapplied).when(report(KEY)).then([]);
  });
});
