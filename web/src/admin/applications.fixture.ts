/** The service's answers as the queue tests meet them: an envelope, and an application as listed. */
export { envelope, serviceStandIn } from '../../test/envelope';
import type { Schemas } from '../api/client';
import { credentialOf } from '../../test/credential';

export const application = (member_id: number, username: string, status: string, overrides: object = {}) => {
  // An application as listed: the credential without its leak, and when its key was last used.
  const { leak: _leak, ...credential } = credentialOf({
    status: status as Schemas['Credential']['status'],
    apiid: status === 'active' ? 'ak_test0000000000000000' : null,
    applied_at: '2026-11-23T10:00:00.000Z',
    reviewed_at: '2026-11-23T10:05:00.000Z',
  });
  return { member_id, username, ...credential, last_used_at: null, ...overrides };
};

/** An expiry gone by, and one far ahead, whatever day the tests run. */
export const PAST = '2026-01-10T08:00:00.000Z';
export const FUTURE = '2099-01-10T08:00:00.000Z';
