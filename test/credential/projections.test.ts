import { apiKeysProjection } from '../../src/credential/projections/api-keys';
import { credentialsProjection } from '../../src/credential/projections/credentials';
import { memberGroupsProjection, roleGroupsProjection } from '../../src/access/projections/groups';
import { documentsOf } from '../../src/shared/projections/projection';
import { scopeRequestsProjection } from '../../src/credential/projections/scope-requests';
import { RecordedEvent } from '../../src/stores/ports';
import { at, eventLog, givenEvents, project } from '../support/projection-spec';
import { accessEvents } from '../access/events';
import { memberEvents } from '../member/events';
import {
  activeLog,
  APIID,
  APIID2,
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
      apiid: null,
      applied_at: at(0),
      purpose: null,
      company: null,
      website: null,
      approved_by_rule: null,
      reviewed_at: null,
      reject_reason: null,
      claimed_at: null,
      key_rotated_at: null,
      expires_at: null,
      extension: null,
      revoked_at: null,
      revoke_reason: null,
      leak: null,
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

describe('scope_requests projection', () => {
  const requests = (events: RecordedEvent[]) => project(scopeRequestsProjection, events);

  it('has one document per member and scope', () => {
    const log = activeLog()
      .credential(3, requested('addons.read', 'list add-ons'))
      .credential(3, requested('member-groups.read'))
      .credential(4, applied(2))
      .credential(4, approved(2))
      .credential(4, claimed(APIID2, 'x', 2))
      .credential(5, requested('addons.read', 'other', 2));
    const docs = requests(log.events);
    expect([...docs.keys()].sort()).toEqual(['1:addons.read', '1:member-groups.read', '2:addons.read']);
    expect(docs.get('1:addons.read')).toEqual({
      member_id: 1,
      scope: 'addons.read',
      status: 'pending',
      reason: 'list add-ons',
      requested_at: at(3),
      reviewed_at: null,
      reject_reason: null,
      revoked_at: null,
      revoke_reason: null,
    });
    expect(docs.get('2:addons.read')).toMatchObject({ member_id: 2, reason: 'other', status: 'pending' });
  });

  it('follows approval, rejection and a new request after a rejection', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(3, requested('member-groups.read'))
      .credential(4, scopeApproved('addons.read'))
      .credential(5, scopeRejected('member-groups.read', 'why?'));
    expect(requests(log.events).get('1:addons.read')).toMatchObject({ status: 'approved', reviewed_at: at(4) });
    expect(requests(log.events).get('1:member-groups.read')).toMatchObject({
      status: 'rejected',
      reviewed_at: at(5),
      reject_reason: 'why?',
    });

    log.credential(6, requested('member-groups.read', 'because'));
    expect(requests(log.events).get('1:member-groups.read')).toMatchObject({
      status: 'pending',
      reason: 'because',
      requested_at: at(6),
      reviewed_at: null,
      reject_reason: null,
    });
  });

  it('a revoked scope keeps its review time and records the revocation', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(4, scopeApproved('addons.read'))
      .credential(7, scopeRevoked('addons.read', 'over'));
    expect(requests(log.events).get('1:addons.read')).toMatchObject({
      status: 'revoked',
      reviewed_at: at(4),
      revoked_at: at(7),
      revoke_reason: 'over',
    });
  });

  it('revoking the credential turns pending and approved requests into revoked; rejected ones stay', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(3, requested('member-groups.read'))
      .credential(4, scopeRejected('member-groups.read', 'no'))
      .credential(8, revoked('leaked'));
    const docs = requests(log.events);
    expect(docs.get('1:addons.read')).toMatchObject({ status: 'revoked', revoked_at: at(8), revoke_reason: 'leaked' });
    expect(docs.get('1:member-groups.read')).toMatchObject({
      status: 'rejected',
      revoked_at: null,
      revoke_reason: null,
    });
  });

  it('revoking a credential creates no document for a scope that was never requested', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(4, scopeApproved('addons.read'))
      .credential(8, revoked('leaked'));
    expect([...requests(log.events).keys()]).toEqual(['1:addons.read']);
  });

  it("a new application after a revocation deletes the member's requests, and only that member's", () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(3, requested('member-groups.read'))
      .credential(4, applied(2))
      .credential(4, approved(2))
      .credential(4, claimed(APIID2, 'x', 2))
      .credential(5, requested('addons.read', 'mine', 2))
      .credential(8, revoked('leaked'))
      .credential(9, applied());
    expect([...requests(log.events).keys()]).toEqual(['2:addons.read']);
  });

  it('ignores credential events that do not touch scopes', () => {
    for (const event of activeLog()
      .credential(3, rotated(APIID, 'k2', 'k1', null))
      .events.slice(1)) {
      expect(documentsOf(scopeRequestsProjection, event)).toEqual([]);
    }
  });
});

describe('api_keys projection', () => {
  const keys = (events: RecordedEvent[]) => project(apiKeysProjection, events).get(String(M));
  // The order of accepted keys carries no meaning: compare them sorted.
  const keyRing = (events: RecordedEvent[]) =>
    [...(keys(events)?.keys ?? [])].sort((a, b) => a.digest.localeCompare(b.digest));

  it('has no document before the claim', () => {
    expect(keys(eventLog().credential(0, applied()).credential(1, approved()).events)).toBeUndefined();
  });

  it('the claim creates the document with the key digest, no scopes, not revoked', () => {
    expect(keys(activeLog().events)).toEqual({
      member_id: M,
      apiid: APIID,
      revoked: false,
      expires_at: null,
      keys: [{ digest: 'k1', valid_until: null }],
      scopes: [],
    });
  });

  it('a rotation with grace keeps the previous key until the grace ends', () => {
    const log = activeLog().credential(10, rotated(APIID, 'k2', 'k1', at(40)));
    expect(keys(log.events)?.apiid).toBe(APIID);
    expect(keyRing(log.events)).toEqual([
      { digest: 'k1', valid_until: at(40) },
      { digest: 'k2', valid_until: null },
    ]);
  });

  it('a rotation without grace drops the previous key at once', () => {
    const log = activeLog().credential(10, rotated(APIID, 'k2', 'k1', null));
    expect(keys(log.events)?.keys).toEqual([{ digest: 'k2', valid_until: null }]);
  });

  it('keeps the earlier keys a rotation decided, and only those', () => {
    const log = activeLog()
      .credential(10, rotated(APIID, 'k2', 'k1', at(60)))
      .credential(20, rotated(APIID, 'k3', 'k2', at(30), [{ digest: 'k1', valid_until: at(30) }]));
    expect(keyRing(log.events)).toEqual([
      { digest: 'k1', valid_until: at(30) },
      { digest: 'k2', valid_until: at(30) },
      { digest: 'k3', valid_until: null },
    ]);
    log.credential(25, rotated(APIID, 'k4', 'k3', null, []));
    expect(keyRing(log.events)).toEqual([{ digest: 'k4', valid_until: null }]);
  });

  it('keeps, for rotations recorded before they decided the earlier keys, those still in their own grace period', () => {
    const log = activeLog()
      .credential(10, rotated(APIID, 'k2', 'k1', at(60), null)) // k1 until 11:00
      .credential(20, rotated(APIID, 'k3', 'k2', at(30), null)); // k2 until 10:30
    expect(keyRing(log.events)).toEqual([
      { digest: 'k1', valid_until: at(60) },
      { digest: 'k2', valid_until: at(30) },
      { digest: 'k3', valid_until: null },
    ]);

    // At 10:45 k2's grace is over and k1's is not; this rotation grants no grace to k3.
    log.credential(45, rotated(APIID, 'k4', 'k3', null, null));
    expect(keyRing(log.events)).toEqual([
      { digest: 'k1', valid_until: at(60) },
      { digest: 'k4', valid_until: null },
    ]);
  });

  it('drops a previous key whose grace ends exactly at the new rotation', () => {
    const log = activeLog()
      .credential(10, rotated(APIID, 'k2', 'k1', at(30)))
      .credential(30, rotated(APIID, 'k3', 'k2', null));
    expect(keys(log.events)?.keys).toEqual([{ digest: 'k3', valid_until: null }]);
  });

  it('lists approved scopes until they are revoked; requests and rejections do not grant anything', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(3, requested('member-groups.read'))
      .credential(4, scopeRejected('member-groups.read', 'no'));
    expect(keys(log.events)?.scopes).toEqual([]);
    log.credential(5, scopeApproved('addons.read'));
    expect(keys(log.events)?.scopes).toEqual(['addons.read']);
    log.credential(6, scopeRevoked('addons.read', 'over'));
    expect(keys(log.events)?.scopes).toEqual([]);
  });

  it('a revocation marks the credential revoked and withdraws every scope', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(4, scopeApproved('addons.read'))
      .credential(8, revoked('leaked'));
    expect(keys(log.events)).toMatchObject({ apiid: APIID, revoked: true, scopes: [] });
  });

  it('a new application deletes the document, and the next claim starts a fresh one', () => {
    const log = activeLog()
      .credential(3, requested('addons.read'))
      .credential(4, scopeApproved('addons.read'))
      .credential(5, rotated(APIID, 'k2', 'k1', at(50)))
      .credential(8, revoked('leaked'))
      .credential(9, applied());
    expect(keys(log.events)).toBeUndefined();
    log.credential(10, approved()).credential(11, claimed(APIID2, 'n1'));
    expect(keys(log.events)).toEqual({
      member_id: M,
      apiid: APIID2,
      revoked: false,
      expires_at: null,
      keys: [{ digest: 'n1', valid_until: null }],
      scopes: [],
    });
  });

  it('ignores the events of other aggregates, and credential events that do not touch keys or scopes', () => {
    const log = eventLog()
      .other(
        0,
        'member-1',
        memberEvents.registered({
          member_id: 1,
          username: 'x',
          nickname: null,
          email: null,
          mobile: null,
          password_hash: 'h',
        }),
      )
      .credential(1, applied())
      .credential(2, approved());
    expect(documentsOf(apiKeysProjection, log.events[0]!)).toEqual([]);
    expect(documentsOf(apiKeysProjection, log.events[2]!)).toEqual([]);
  });
});

describe('role_groups projection', () => {
  it('defines groups enabled, and follows disable and enable', () => {
    const log = eventLog()
      .roleGroup(
        0,
        accessEvents.roleGroupDefined({ role_id: 3, name: 'Reviewers', permissions: ['credential.review'] }),
      )
      .roleGroup(0, accessEvents.roleGroupDefined({ role_id: 4, name: 'Viewers', permissions: ['addon.view'] }));
    expect(project(roleGroupsProjection, log.events)).toEqual(
      new Map([
        ['3', { id: 3, name: 'Reviewers', permissions: ['credential.review'], enabled: true }],
        ['4', { id: 4, name: 'Viewers', permissions: ['addon.view'], enabled: true }],
      ]),
    );
    log.roleGroup(1, accessEvents.roleGroupDisabled(3));
    expect(project(roleGroupsProjection, log.events).get('3')).toMatchObject({ enabled: false });
    expect(project(roleGroupsProjection, log.events).get('4')).toMatchObject({ enabled: true });
    log.roleGroup(2, accessEvents.roleGroupEnabled(3));
    expect(project(roleGroupsProjection, log.events).get('3')).toMatchObject({ enabled: true });
  });

  it('ignores other streams', () => {
    const log = activeLog().memberGroup(
      3,
      accessEvents.memberGroupDefined({ member_group_id: 1, name: 'P', description: '' }),
    );
    expect(project(roleGroupsProjection, log.events).size).toBe(0);
  });
});

describe('member_groups projection', () => {
  it('has one document per defined member group', () => {
    const log = eventLog()
      .memberGroup(
        0,
        accessEvents.memberGroupDefined({ member_group_id: 1, name: 'Partners', description: 'Paying partners' }),
      )
      .memberGroup(1, accessEvents.memberGroupDefined({ member_group_id: 2, name: 'Trial', description: '' }))
      .roleGroup(2, accessEvents.roleGroupDefined({ role_id: 1, name: 'Admins', permissions: [] }));
    expect(project(memberGroupsProjection, log.events)).toEqual(
      new Map([
        ['1', { id: 1, name: 'Partners', description: 'Paying partners' }],
        ['2', { id: 2, name: 'Trial', description: '' }],
      ]),
    );
  });
});
