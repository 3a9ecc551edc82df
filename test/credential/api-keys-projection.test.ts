import { apiKeysProjection } from '../../src/credential/projections/api-keys';
import { documentsOf } from '../../src/shared/projections/projection';
import { RecordedEvent } from '../../src/stores/ports';
import { at, eventLog, project } from '../support/projection-spec';
import { memberEvents } from '../member/events';
import {
  activeLog,
  APIID,
  APIID2,
  applied,
  approved,
  claimed,
  M,
  requested,
  revoked,
  rotated,
  scopeApproved,
  scopeRejected,
  scopeRevoked,
} from './fixtures';

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
