import { credentialsProjection } from '../../src/credential/projections/credentials';
import { NO_APPLICANT, NOTHING_DECIDED } from '../../src/credential/views';
import { RecordedEvent } from '../../src/stores/ports';
import { at, eventLog, givenEvents, project } from '../support/projection-spec';
import {
  activeLog,
  APIID,
  applied,
  approved,
  claimed,
  M,
  rejected,
  requested,
  revoked,
  rotated,
  scopeApproved,
  scopeRejected,
  scopeRevoked,
} from './fixtures';

describe('credentials projection', () => {
  const credential = (events: RecordedEvent[]) => project(credentialsProjection, events).get(String(M));

  it('records the application', () => {
    givenEvents(credentialsProjection, eventLog().credential(0, applied()).events).thenDocument(String(M), {
      member_id: M,
      username: 'user1',
      status: 'pending',
      applied_at: at(0),
      ...NO_APPLICANT,
      ...NOTHING_DECIDED,
      scopes: [],
    });
  });

  it('records a rejection with its reason, and a new application clears it', () => {
    const log = eventLog().credential(0, applied()).credential(1, rejected('incomplete'));
    expect(credential(log.events)).toMatchObject({
      status: 'rejected',
      reviewed_at: at(1),
      reject_reason: 'incomplete',
    });
    log.credential(5, applied());
    expect(credential(log.events)).toMatchObject({
      status: 'pending',
      applied_at: at(5),
      reviewed_at: null,
      reject_reason: null,
    });
  });

  it('records approval, claim and rotation times; the API id stays across rotations', () => {
    const log = activeLog();
    expect(credential(log.events)).toMatchObject({
      status: 'active',
      apiid: APIID,
      reviewed_at: at(1),
      claimed_at: at(2),
      key_rotated_at: null,
    });
    log.credential(9, rotated(APIID, 'k2', 'k1', null));
    expect(credential(log.events)).toMatchObject({
      status: 'active',
      apiid: APIID,
      claimed_at: at(2),
      key_rotated_at: at(9),
    });
  });

  it('embeds the scopes, one entry per name, with their reviews', () => {
    const log = activeLog()
      .credential(3, requested('addons.read', 'list add-ons'))
      .credential(3, requested('member-groups.read', 'list groups'))
      .credential(4, scopeApproved('addons.read'))
      .credential(5, scopeRejected('member-groups.read', 'not needed'));
    expect(credential(log.events)?.scopes).toEqual([
      {
        name: 'addons.read',
        status: 'approved',
        reason: 'list add-ons',
        requested_at: at(3),
        reviewed_at: at(4),
        reject_reason: null,
        revoked_at: null,
        revoke_reason: null,
      },
      {
        name: 'member-groups.read',
        status: 'rejected',
        reason: 'list groups',
        requested_at: at(3),
        reviewed_at: at(5),
        reject_reason: 'not needed',
        revoked_at: null,
        revoke_reason: null,
      },
    ]);

    log
      .credential(6, requested('member-groups.read', 'second try'))
      .credential(7, scopeRevoked('addons.read', 'abuse'));
    const scopes = credential(log.events)?.scopes ?? [];
    expect(scopes.map((s) => s.name).sort()).toEqual(['addons.read', 'member-groups.read']);
    expect(scopes.find((s) => s.name === 'member-groups.read')).toMatchObject({
      status: 'pending',
      reason: 'second try',
      requested_at: at(6),
      reviewed_at: null,
      reject_reason: null,
    });
    expect(scopes.find((s) => s.name === 'addons.read')).toMatchObject({
      status: 'revoked',
      revoked_at: at(7),
      revoke_reason: 'abuse',
    });
  });

  it('a revocation records its reason and revokes the pending and approved scopes, not the rejected ones', () => {
    const log = eventLog()
      .credential(0, applied())
      .credential(1, approved())
      .credential(2, claimed(APIID, 'k1'))
      .credential(3, requested('addons.read'))
      .credential(3, requested('member-groups.read'))
      .credential(4, scopeRejected('member-groups.read', 'no'))
      .credential(8, revoked('leaked'));
    const doc = credential(log.events);
    expect(doc).toMatchObject({ status: 'revoked', revoked_at: at(8), revoke_reason: 'leaked', apiid: APIID });
    expect(doc?.scopes.find((s) => s.name === 'addons.read')).toMatchObject({
      status: 'revoked',
      revoked_at: at(8),
      revoke_reason: 'leaked',
    });
    expect(doc?.scopes.find((s) => s.name === 'member-groups.read')).toMatchObject({
      status: 'rejected',
      revoked_at: null,
      reject_reason: 'no',
    });
  });

  it('a new application after a revocation starts over: no API id, no scopes, no old reasons', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(4, revoked('leaked'))
      .credential(9, applied());
    expect(credential(log.events)).toMatchObject({
      status: 'pending',
      apiid: null,
      applied_at: at(9),
      claimed_at: null,
      revoked_at: null,
      revoke_reason: null,
      scopes: [],
    });
  });

  it('keeps members apart and ignores other streams', () => {
    const log = activeLog()
      .credential(3, applied(2))
      .other(4, 'member-user3', { type: 'MemberRegistered', data: { member_id: 3 } });
    const docs = project(credentialsProjection, log.events);
    expect([...docs.keys()].sort()).toEqual(['1', '2']);
    expect(docs.get('2')).toMatchObject({ status: 'pending', username: 'user2' });
    expect(docs.get('1')).toMatchObject({ status: 'active' });
  });

  it('refuses an event for a member who never applied, rather than inventing a document', () => {
    const log = eventLog().credential(0, approved());
    expect(() => project(credentialsProjection, log.events)).toThrow(/never applied/);
  });
});
