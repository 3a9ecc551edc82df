import { Command } from 'commander';
import { defineMemberGroup, listMemberGroups } from '../groups';
import { withStores } from '../../shared/cli/run';
import { formatTable } from '../../shared/cli/table';
import { visible } from '../../shared/visible';

/** `platform member-groups`: the member groups partners read through the open API. */
export function memberGroupsCommand(): Command {
  const groups = new Command('member-groups').description('member groups, as partners see them');
  groups
    .command('create')
    .description('define a member group under the next free id')
    .requiredOption('--name <name>', '1 to 64 characters')
    .option('--description <text>', 'at most 500 characters', '')
    .action((options: { name: string; description: string }) =>
      withStores(async (stores, ctx) => {
        const { id } = await defineMemberGroup(stores.events, options, ctx);
        process.stdout.write(`Member group created: id ${id}, name "${visible(options.name)}".\n`);
      }),
    );
  groups
    .command('list')
    .description('every member group, read from the event log')
    .option('--json', 'print JSON instead of a table')
    .action((options: { json?: true }) =>
      withStores(async (stores) => {
        // The same fields as GET /open/member-groups answers.
        const list = (await listMemberGroups(stores.events)).map(({ member_group_id, name, description }) => ({
          id: member_group_id,
          name,
          description,
        }));
        if (options.json) {
          process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        const rows = list.map((g) => [String(g.id), g.name, g.description]);
        process.stdout.write(`${formatTable(['ID', 'NAME', 'DESCRIPTION'], rows)}\n`);
      }),
    );
  return groups;
}
