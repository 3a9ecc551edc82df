import { createAdmin } from '../../../../src/access/admins';
import { defineMemberGroup, defineRoleGroup, setRoleGroupEnabled } from '../../../../src/access/groups';
import { REGISTRY } from '../../../support/registry';
import { SHELL } from '../../../../src/access/grantor';
import { Draw, hasher } from './draw';

/** A role group, its enabling, a member group or an administrator, in a random run. */
export async function groupsOrAdmins(d: Draw): Promise<void> {
  const { stores, pick, chance, random, ctx, permissions, adminNames } = d;
  const kind = pick(['roleGroup', 'enable', 'memberGroup', 'admin'] as const);
  if (kind === 'roleGroup') {
    const name = chance(0.1) ? '' : `Role ${d.roleGroups + 1}`;
    await defineRoleGroup(
      stores.events,
      { name, permissions: permissions() },
      { registered: REGISTRY.permissions, by: SHELL },
      ctx(),
    );
    d.roleGroups++;
  } else if (kind === 'enable') {
    // Ids one past the last are unknown: role_group_not_found.
    await setRoleGroupEnabled(stores.events, 1 + Math.floor(random() * (d.roleGroups + 1)), chance(0.5), SHELL, ctx());
  } else if (kind === 'memberGroup') {
    await defineMemberGroup(
      stores.events,
      { name: `Group ${Math.floor(random() * 1e6)}`, description: chance(0.1) ? 'd'.repeat(501) : 'partners' },
      ctx(),
    );
  } else {
    const username =
      adminNames.length > 0 && chance(0.2)
        ? pick(adminNames)
        : `ops${adminNames.length + 1}x${Math.floor(random() * 1e6)}`;
    const role_id = chance(0.1) ? d.roleGroups + 1 : 1 + Math.floor(random() * d.roleGroups);
    await createAdmin(stores.events, hasher, { username, password: 'secret1', is_super: false, role_id }, SHELL, ctx());
    adminNames.push(username);
  }
}
