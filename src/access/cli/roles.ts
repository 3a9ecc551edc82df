import { Command, InvalidArgumentError } from 'commander';
import { defineRoleGroup, listRoleGroups, setRoleGroupEnabled } from '../groups';
import { SHELL } from '../grantor';
import { parseId } from '../../shared/cli/parse';
import { withStores } from '../../shared/cli/run';
import { formatTable } from '../../shared/cli/table';
import { visible } from '../../shared/visible';

/**
 * `platform roles`: role groups, the permissions an administrator of the group holds, from those
 * `registered` (REGISTRY.permissions, which src/cli.ts passes).
 */
export function rolesCommand(registered: readonly string[]): Command {
  const roles = new Command('roles').description('role groups: which permissions their administrators hold');
  roles
    .command('create')
    .description('define a role group under the next free id; it starts enabled')
    .requiredOption('--name <name>', '1 to 64 characters')
    .requiredOption('--permissions <list>', `comma-separated, from ${registered.join(', ')}`, (list) =>
      parsePermissions(list, registered),
    )
    .action((options: { name: string; permissions: string[] }) =>
      withStores(async (stores, ctx) => {
        const { id } = await defineRoleGroup(stores.events, options, { registered, by: SHELL }, ctx);
        process.stdout.write(
          `Role group created: id ${id}, name "${visible(options.name)}", ${permissionList(options.permissions)}.\n`,
        );
      }),
    );
  roles
    .command('list')
    .description('every role group, read from the event log')
    .option('--json', 'print JSON instead of a table')
    .action((options: { json?: true }) =>
      withStores(async (stores) => {
        const groups = (await listRoleGroups(stores.events)).map(({ role_id, name, enabled, permissions }) => ({
          id: role_id,
          name,
          enabled,
          permissions,
        }));
        if (options.json) {
          process.stdout.write(`${JSON.stringify(groups, null, 2)}\n`);
          return;
        }
        const rows = groups.map((g) => [
          String(g.id),
          g.name,
          g.enabled ? 'yes' : 'no',
          g.permissions.join(',') || '-',
        ]);
        process.stdout.write(`${formatTable(['ID', 'NAME', 'ENABLED', 'PERMISSIONS'], rows)}\n`);
      }),
    );
  for (const enabled of [true, false]) {
    const verb = enabled ? 'enable' : 'disable';
    roles
      .command(verb)
      .description(`${verb} a role group: its administrators ${enabled ? 'regain' : 'lose'} its permissions`)
      .argument('<id>', 'role group id', parseId)
      .action((id: number) =>
        withStores(async (stores, ctx) => {
          await setRoleGroupEnabled(stores.events, id, enabled, SHELL, ctx);
          process.stdout.write(`Role group ${id} ${verb}d.\n`);
        }),
      );
  }
  return roles;
}

function permissionList(permissions: string[]): string {
  return permissions.length === 0 ? 'no permissions' : `permissions ${permissions.join(', ')}`;
}

export function parsePermissions(list: string, registered: readonly string[]): string[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !registered.includes(name));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(`unknown permission ${unknown.join(', ')}; known: ${registered.join(', ')}.`);
  }
  return names;
}
