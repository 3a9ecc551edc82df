#!/usr/bin/env node
import { Command } from 'commander';
import { adminCommand } from './access/cli/admin';
import { auditCommand, historyCommand } from './audit';
import { PROJECTIONS, REGISTRY } from './compose';
import { memberGroupsCommand } from './access/cli/member-groups';
import { projectionsCommand } from './shared/cli/projections';
import { rolesCommand } from './access/cli/roles';
import { describeFailure } from './shared/cli/run';
import { upgradeCommand } from './shared/cli/upgrade';

// A reader that stops early (`platform openapi | head`) closes the pipe: the output is no longer
// wanted, which is no failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

/**
 * `platform`: the operator's command line. Settings come from the same environment as the API.
 * The service (HTTP, projections) is loaded only by the commands that run it: an auditor's
 * `platform audit verify` on a laptop should not carry the web stack in memory.
 */
const program = new Command('platform').description(
  'Platform API: developer credentials, open API, application center',
);

program
  .command('serve')
  .description('run the API (projections inline unless PROJECTIONS=off)')
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see above
  .action(() => (require('./serve') as typeof import('./serve')).serve(process.env));

program
  .command('project')
  .description('run the projections alone, for API processes started with PROJECTIONS=off')
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see above
  .action(() => (require('./project') as typeof import('./project')).project(process.env));

program
  .command('openapi')
  .description('print the OpenAPI contract the API serves at GET /openapi')
  .action(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see above
    const { platformContract } = require('./app') as typeof import('./app');
    process.stdout.write(`${JSON.stringify(platformContract(), null, 2)}\n`);
  });

program.addCommand(adminCommand());
program.addCommand(rolesCommand(REGISTRY.permissions));
program.addCommand(memberGroupsCommand());
program.addCommand(
  historyCommand(
    (type, data) => REGISTRY.describe(type, data),
    (member) => REGISTRY.memberStreams(member),
  ),
);
program.addCommand(auditCommand((type, data) => REGISTRY.describe(type, data)));
program.addCommand(projectionsCommand(PROJECTIONS));
program.addCommand(upgradeCommand(PROJECTIONS));

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`platform: ${describeFailure(err)}\n`);
  process.exit(1);
});
