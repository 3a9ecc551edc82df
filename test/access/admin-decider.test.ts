import { adminDecider, AdminProfile, adminStream } from '../../src/access/admin';
import { memberStream } from '../../src/member/decider';
import { Grantor } from '../../src/access/grantor';
import { given } from '../support/decider-spec';
import { accessEvents as events } from './events';
import { grantors } from './grantors';

const { SHELL, holder, superAdmin } = grantors;

describe('administrator decider', () => {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
  const root: AdminProfile = {
    admin_id: 1,
    username: 'Admin',
    is_super: true,
    role_id: null,
    password_hash: hash,
    email: null,
  };
  const reviewer: AdminProfile = {
    admin_id: 2,
    username: 'reviewer',
    is_super: false,
    role_id: 3,
    password_hash: hash,
    email: 'reviewer@example.com',
  };

  it.each([
    ['a super administrator without a role group', root],
    ['an administrator of one role group', reviewer],
  ])('creates %s', (_label, profile) => {
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: profile, permissions: [], by: SHELL })
      .then([events.adminCreated(profile)]);
  });

  it.each([
    ['super and in a role group', { is_super: true, role_id: 3 }],
    ['neither super nor in a role group', { is_super: false, role_id: null }],
  ])('refuses an administrator who is %s', (_label, changes) => {
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: { ...reviewer, ...changes }, permissions: [], by: SHELL })
      .thenRefuses('invalid_admin_role');
  });

  it.each([
    ['a clear password', 'secret1'],
    ['an Argon2i hash', '$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g'],
    ['a bcrypt hash', '$2b$10$abcdefghijklmnopqrstuuN6sWsoZyZb0wRbq2Kp4gJ2Q3xY5Ffy'],
    ['an empty string', ''],
  ])('refuses %s where an Argon2id hash belongs', (_label, password_hash) => {
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: { ...root, password_hash }, permissions: [], by: SHELL })
      .thenRefuses('invalid_password_hash');
  });

  it('refuses a username that an administrator already has', () => {
    given(adminDecider, [events.adminCreated(root)])
      .when({ type: 'CreateAdmin', data: { ...reviewer, username: 'admin' }, permissions: [], by: SHELL })
      .thenRefuses('admin_username_taken');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses administrator id %p', (admin_id) => {
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: { ...root, admin_id }, permissions: [], by: SHELL })
      .thenRefuses('invalid_admin_id');
  });

  const manager = holder(9, ['access.manage', 'credential.review']);
  const reset = (by: Grantor, permissions: string[] = []) =>
    ({ type: 'ResetAdminPassword', data: { password_hash: hash }, permissions, by }) as const;

  it("lets only a super administrator reset a super administrator's password", () => {
    given(adminDecider, [events.adminCreated(root)])
      .when(reset(manager))
      .thenRefuses('super_admin_only', /only a super administrator/);
    given(adminDecider, [events.adminCreated(root)])
      .when(reset(superAdmin(4)))
      .then([{ type: 'AdminPasswordReset', data: { admin_id: 1, password_hash: hash } }]);
    given(adminDecider, [events.adminCreated(reviewer)])
      .when(reset(manager, ['credential.review']))
      .then([{ type: 'AdminPasswordReset', data: { admin_id: 2, password_hash: hash } }]);
  });

  it('resets only the password of an administrator whose permissions the one who asks holds, and never its own', () => {
    given(adminDecider, [events.adminCreated(reviewer)])
      .when(reset(manager, ['credential.review', 'audit.read']))
      .thenRefuses('permission_not_held', /audit\.read/);
    given(adminDecider, [events.adminCreated(reviewer)])
      .when(reset(holder(2, ['access.manage'])))
      .thenRefuses('own_account');
  });

  it('creates an administrator only in a group whose permissions the one who asks holds, and a super one only when asked by a super one', () => {
    const create = (by: Grantor, permissions: string[]) =>
      ({ type: 'CreateAdmin', data: reviewer, permissions, by }) as const;
    given(adminDecider, [])
      .when(create(manager, ['credential.review']))
      .then([events.adminCreated(reviewer)]);
    given(adminDecider, [])
      .when(create(manager, ['credential.review', 'webhook.manage']))
      .thenRefuses('permission_not_held', /webhook\.manage/);
    // The reviewer's group is 3: webhook.manage, held in group 4, reaches only group 4's webhooks.
    const hooks = holder(9, ['access.manage', 'webhook.manage'], 4);
    given(adminDecider, [])
      .when(create(hooks, ['webhook.manage']))
      .thenRefuses('permission_not_held', /own role group only/);
    given(adminDecider, [])
      .when(create(holder(9, ['access.manage', 'webhook.manage'], 3), ['webhook.manage']))
      .then([events.adminCreated(reviewer)]);
    given(adminDecider, [])
      .when({ type: 'CreateAdmin', data: root, permissions: [], by: manager })
      .thenRefuses('super_admin_only');
  });

  it('names the stream after the username case-insensitively, apart from members', () => {
    expect(adminStream('Admin')).toBe(adminStream('aDMIN'));
    expect(adminStream('Admin')).not.toBe(adminStream('Admin2'));
    expect(adminStream('alice')).not.toBe(memberStream('alice'));
  });
});
