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
