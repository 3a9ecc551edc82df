import { Command } from 'commander';
// Every command reads or appends events: this registers the slices' codecs the kernel decodes them with.
import { describeRegisteredEvent } from './event-registry';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see below
const load = <Module>(path: string): Module => require(path) as Module;
const composition = () => load<typeof import('./compose')>('./compose');

/**
 * The other commands, each loaded when it is the one run, or all of them when none is named (to
 * list them). `platform audit verify` thus loads the slices' events alone (src/event-registry.ts),
 * not the composition with its stores and endpoints: its peak memory is that of the verification.
 */
const COMMANDS: Record<string, () => Command> = {
  admin: () => load<typeof import('./access/cli/admin')>('./access/cli/admin').adminCommand(),
  roles: () =>
    load<typeof import('./access/cli/roles')>('./access/cli/roles').rolesCommand(composition().REGISTRY.permissions),
  'member-groups': () =>
    load<typeof import('./access/cli/member-groups')>('./access/cli/member-groups').memberGroupsCommand(),
  history: () => {
    const { REGISTRY } = composition();
    return load<typeof import('./audit')>('./audit').historyCommand(
      (type, data) => REGISTRY.describe(type, data),
      (member) => REGISTRY.memberStreams(member),
    );
  },
  audit: () =>
    load<typeof import('./audit/proof/cli')>('./audit/proof/cli').auditCommand(describeRegisteredEvent, (work) =>
      load<typeof import('./shared/cli/run')>('./shared/cli/run').withStores(work),
    ),
  projections: () =>
    load<typeof import('./shared/cli/projections')>('./shared/cli/projections').projectionsCommand(
      composition().PROJECTIONS,
    ),
  upgrade: () =>
    load<typeof import('./shared/cli/upgrade')>('./shared/cli/upgrade').upgradeCommand(composition().PROJECTIONS),
};

/**
 * `platform`: the operator's command line. Settings come from the same environment as the API.
 * The service (HTTP, projections) is loaded only by the commands that run it: an auditor's
 * `platform audit verify` on a laptop should not carry the web stack in memory. `named` is the
 * command about to run, the only one loaded; none or an unknown name loads them all.
 */
export function platformProgram(named: string | undefined): Command {
  const program = new Command('platform').description(
    'Platform API: developer credentials, open API, application center',
  );

  program
    .command('serve')
    .description('run the API (projections inline unless PROJECTIONS=off)')
    .action(() => load<typeof import('./serve')>('./serve').serve(process.env));

  program
    .command('project')
    .description('run the projections alone, for API processes started with PROJECTIONS=off')
    .action(() => load<typeof import('./project')>('./project').project(process.env));

  program
    .command('openapi')
    .description('print the OpenAPI contract the API serves at GET /openapi')
    .action(() => {
      const { platformContract } = load<typeof import('./app')>('./app');
      process.stdout.write(`${JSON.stringify(platformContract(), null, 2)}\n`);
    });

  for (const name of named !== undefined && named in COMMANDS ? [named] : Object.keys(COMMANDS))
    program.addCommand(COMMANDS[name]!());
  return program;
}
