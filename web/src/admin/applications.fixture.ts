/** The service's answers as the queue tests meet them: an envelope, and an application as listed. */
export { envelope, serviceStandIn } from '../../test/envelope';

export const application = (member_id: number, username: string, status: string, overrides: object = {}) => ({
  member_id,
  username,
  status,
  apiid: status === 'active' ? 'ak_test0000000000000000' : null,
  applied_at: '2026-11-23T10:00:00.000Z',
  reviewed_at: '2026-11-23T10:05:00.000Z',
  reject_reason: null,
  claimed_at: null,
  key_rotated_at: null,
  purpose: null,
  company: null,
  website: null,
  approved_by_rule: null,
  revoked_at: null,
  revoke_reason: null,
  expires_at: null,
  extension: null,
  last_used_at: null,
  ...overrides,
});
