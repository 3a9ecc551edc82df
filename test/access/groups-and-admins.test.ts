import { adminDecider, AdminProfile, adminStream } from '../../src/access/admin';
import { memberStream } from '../../src/member/decider';
import { MemberGroupDefinition, memberGroupDecider } from '../../src/access/member-group';
import { REGISTRY } from '../support/registry';
import { RoleGroupDefinition, roleGroupDecider } from '../../src/access/role-group';
import { Grantor } from '../../src/access/grantor';
import { given } from '../support/decider-spec';
import { accessEvents as events } from './events';
import { grantors } from './grantors';

const { SHELL, holder, superAdmin } = grantors;

describe('role group decider', () => {
  const reviewers: RoleGroupDefinition = {
    role_id: 3,
    name: 'Reviewers',
    permissions: ['credential.review', 'audit.read'],
  };
  const defined = events.roleGroupDefined(reviewers);
  const disabled = events.roleGroupDisabled(3);
  const define = (changes: Partial<RoleGroupDefinition>, by: Grantor = SHELL) => ({
    type: 'DefineRoleGroup' as const,
    data: { ...reviewers, ...changes },
    registered: REGISTRY.permissions,
    taken: [] as string[],
    by,
  });

  it('defines a new role group', () => {
    given(roleGroupDecider, []).when(define({})).then([defined]);
  });

  it('refuses to define a role group id twice', () => {
    given(roleGroupDecider, [defined])
      .when(define({ name: 'Other' }))
      .thenRefuses('role_group_exists');
  });

  it.each([0, -1, 1.5, Number.NaN, 2 ** 53])('refuses role id %p: ids are integers of at least 1', (role_id) => {
    given(roleGroupDecider, []).when(define({ role_id })).thenRefuses('invalid_role_id');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['65 characters long', 'n'.repeat(65)],
    ['broken by a line feed', 'Ops\nRoot'],
    ['reordered by a bidirectional override', 'evil\u202etxt.exe'],
  ])('refuses a name that is %s', (_label, name) => {
    given(roleGroupDecider, []).when(define({ name })).thenRefuses('invalid_role_group_name');
  });

  it.each([
    ['with a zero-width space', 'Audi\u200btors'],
    ['with a zero-width joiner', 'Audi\u200dtors'],
    ['with a word joiner', 'Audi\u2060tors'],
    ['with a byte order mark', '\ufeffAuditors'],
    ['with a soft hyphen (a format character)', 'Audi\u00adtors'],
  ])('refuses a name %s', (_label, name) => {
    given(roleGroupDecider, [])
      .when(define({ name }))
      .thenRefuses('invalid_role_group_name', /zero-width/);
  });

  it.each([
    ['the same', 'Auditors'],
    ['in another case', 'AUDITORS'],
    ['with a Cyrillic А', '\u0410uditors'],
    ['in fullwidth letters', 'Ａｕｄｉｔｏｒｓ'],
  ])("refuses a name that reads like another group's: %s", (_label, name) => {
    given(roleGroupDecider, [])
      .when({ ...define({ name }), taken: ['Operators', 'Auditors'] })
      .thenRefuses('role_group_name_taken', /"Auditors"/);
  });

  it('keeps a name NFKC-normalised, and takes one that only shares letters with another', () => {
    given(roleGroupDecider, [])
      .when({ ...define({ name: 'Ｒｅｖｉｅｗｅｒｓ' }), taken: ['Auditors'] })
      .then([defined]);
  });

  it.each(['R', 'n'.repeat(64)])('accepts a name of 1 to 64 characters (%#)', (name) => {
    given(roleGroupDecider, [])
      .when(define({ name }))
      .then([events.roleGroupDefined({ ...reviewers, name })]);
  });

  it('refuses an unknown permission', () => {
    given(roleGroupDecider, [])
      .when(define({ permissions: ['addon.view', 'root'] }))
      .thenRefuses('unknown_permission');
  });

  it('refuses a permission listed twice', () => {
    given(roleGroupDecider, [])
      .when(define({ permissions: ['addon.view', 'addon.view'] }))
      .thenRefuses('duplicate_permission');
  });

  it('disables an enabled group, and enables it again', () => {
    given(roleGroupDecider, [defined])
      .when({ type: 'DisableRoleGroup', data: { role_id: 3 }, by: SHELL })
      .then([disabled]);
    given(roleGroupDecider, [defined, disabled])
      .when({ type: 'EnableRoleGroup', data: { role_id: 3 }, by: SHELL })
      .then([events.roleGroupEnabled(3)]);
  });

  it('refuses to enable a group that is enabled: a new group starts enabled', () => {
    given(roleGroupDecider, [defined])
      .when({ type: 'EnableRoleGroup', data: { role_id: 3 }, by: SHELL })
      .thenRefuses('role_group_already_enabled');
  });

  it('refuses to disable a group that is disabled', () => {
    given(roleGroupDecider, [defined, disabled])
      .when({ type: 'DisableRoleGroup', data: { role_id: 3 }, by: SHELL })
      .thenRefuses('role_group_already_disabled');
  });

  it('lets a holder of access.manage define a group only with permissions it holds', () => {
    const reviewer = holder(5, ['access.manage', 'credential.review', 'audit.read']);
    given(roleGroupDecider, []).when(define({}, reviewer)).then([defined]);
    given(roleGroupDecider, [])
      .when(define({}, holder(5, ['access.manage', 'audit.read'])))
      .thenRefuses('permission_not_held', /credential\.review/);
    given(roleGroupDecider, [])
      .when(
        define(
          { permissions: REGISTRY.permissions.filter((p) => p !== 'access.manage') },
          holder(5, ['access.manage']),
        ),
      )
      .thenRefuses('permission_not_held');
  });

  it.each(['EnableRoleGroup', 'DisableRoleGroup'] as const)(
    'lets %s only by one holding every permission of the group',
    (type) => {
      const history = type === 'EnableRoleGroup' ? [defined, disabled] : [defined];
      given(roleGroupDecider, history)
        .when({ type, data: { role_id: 3 }, by: holder(5, ['access.manage', 'audit.read']) })
        .thenRefuses('permission_not_held', /credential\.review/);
      given(roleGroupDecider, history)
        .when({ type, data: { role_id: 3 }, by: superAdmin(1) })
        .then([type === 'EnableRoleGroup' ? events.roleGroupEnabled(3) : disabled]);
    },
  );

  it.each(['EnableRoleGroup', 'DisableRoleGroup'] as const)('refuses %s for a group that was never defined', (type) => {
    given(roleGroupDecider, [])
      .when({ type, data: { role_id: 9 }, by: SHELL })
      .thenRefuses('role_group_not_found');
  });
});

describe('member group decider', () => {
  const partners: MemberGroupDefinition = { member_group_id: 2, name: 'Partners', description: 'Paying partners' };
  const define = (changes: Partial<MemberGroupDefinition>) => ({
    type: 'DefineMemberGroup' as const,
    data: { ...partners, ...changes },
  });

  it('defines a new member group', () => {
    given(memberGroupDecider, [])
      .when(define({}))
      .then([events.memberGroupDefined(partners)]);
  });

  it('refuses to define a member group id twice', () => {
    given(memberGroupDecider, [events.memberGroupDefined(partners)])
      .when(define({ name: 'Other' }))
      .thenRefuses('member_group_exists');
  });

  it.each([0, -2, 2.5, Number.NaN])('refuses member group id %p', (member_group_id) => {
    given(memberGroupDecider, []).when(define({ member_group_id })).thenRefuses('invalid_member_group_id');
  });

  it.each([
    ['empty', ''],
    ['blank', ' \t '],
    ['65 characters long', 'n'.repeat(65)],
    ['broken by a line feed', 'evil\nline'],
    ['holding an escape sequence', 'red\u001b[31m'],
  ])('refuses a name that is %s', (_label, name) => {
    given(memberGroupDecider, []).when(define({ name })).thenRefuses('invalid_member_group_name');
  });

  it('refuses a description over 500 characters', () => {
    given(memberGroupDecider, [])
      .when(define({ description: 'd'.repeat(501) }))
      .thenRefuses('invalid_member_group_description');
  });

  it.each(['', 'd'.repeat(500)])('accepts a description of 0 to 500 characters (%#)', (description) => {
    given(memberGroupDecider, [])
      .when(define({ description, name: 'n'.repeat(64) }))
      .then([events.memberGroupDefined({ ...partners, description, name: 'n'.repeat(64) })]);
  });
});

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
