import { adminDecider, AdminEvent, AdminProfile } from '../../src/access/admin';
import { given } from '../support/decider-spec';
import { accessEvents as events } from './events';
import { SHELL } from '../../src/access/grantor';

describe('administrator invitations (decider)', () => {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
  const chosen = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$Y2hvc2VuY2hvc2Vu';
  const invitee: AdminProfile = {
    admin_id: 7,
    username: 'newcomer',
    is_super: false,
    role_id: 3,
    password_hash: hash,
    email: 'new@example.com',
  };
  const invitation = { token_digest: 'd1', expires_at: '2026-12-01T10:00:00.000Z' };
  const invited: AdminEvent = { type: 'AdminInvited', data: { admin_id: 7, ...invitation } };
  const accepted: AdminEvent = { type: 'AdminInvitationAccepted', data: { admin_id: 7, password_hash: chosen } };
  const accept = (overrides: Partial<{ token_digest: string; now: string; disabled: boolean }> = {}) => ({
    type: 'AcceptAdminInvitation' as const,
    data: { token_digest: 'd1', password_hash: chosen, now: '2026-11-28T10:00:00.000Z', disabled: false, ...overrides },
  });

  it('records the invitation with the creation, in one decision', () => {
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: invitee, invitation, permissions: [], by: SHELL })
      .then([events.adminCreated(invitee), invited]);
  });

  it('sets the chosen password through the invitation', () => {
    given(adminDecider, [events.adminCreated(invitee), invited])
      .when(accept())
      .then([accepted]);
  });

  it('refuses a second use: the link is spent', () => {
    given(adminDecider, [events.adminCreated(invitee), invited, accepted])
      .when(accept())
      .thenRefuses('invitation_token_spent');
  });

  it('refuses the link once another password was set (a one-time password from a reset)', () => {
    const reset: AdminEvent = { type: 'AdminPasswordReset', data: { admin_id: 7, password_hash: hash } };
    given(adminDecider, [events.adminCreated(invitee), invited, reset])
      .when(accept())
      .thenRefuses('invitation_token_spent');
  });

  it('refuses a link from its expiry on, and accepts it just before', () => {
    const history = [events.adminCreated(invitee), invited];
    given(adminDecider, history)
      .when(accept({ now: '2026-12-01T10:00:00.000Z' }))
      .thenRefuses('invitation_token_expired');
    given(adminDecider, history)
      .when(accept({ now: '2026-12-01T09:59:59.999Z' }))
      .then([accepted]);
  });

  it('refuses a digest it never mailed', () => {
    given(adminDecider, [events.adminCreated(invitee), invited])
      .when(accept({ token_digest: 'd2' }))
      .thenRefuses('invitation_token_unknown');
  });

  it("refuses a disabled administrator's invitation, but only for a good link", () => {
    const history = [events.adminCreated(invitee), invited];
    given(adminDecider, history)
      .when(accept({ disabled: true }))
      .thenRefuses('admin_disabled');
    given(adminDecider, history)
      .when(accept({ disabled: true, token_digest: 'd2' }))
      .thenRefuses('invitation_token_unknown');
  });
});
