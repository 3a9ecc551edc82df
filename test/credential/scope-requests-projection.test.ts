import { documentsOf } from '../../src/shared/projections/projection';
import { scopeRequestsProjection } from '../../src/credential/projections/scope-requests';
import { RecordedEvent } from '../../src/stores/ports';
import { at, project } from '../support/projection-spec';
import {
  activeLog,
  APIID,
  APIID2,
  applied,
  approved,
  claimed,
  requested,
  revoked,
  rotated,
  scopeApproved,
  scopeRejected,
  scopeRevoked,
} from './fixtures';

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
