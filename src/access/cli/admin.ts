import { Command, Option } from 'commander';
import { createAdmin } from '../admins';
import { SHELL } from '../grantor';
import type { AdminIdentity } from '../../shared/http/session';
import { argon2Hasher, oneTimePassword } from '../../member';
import { parseId } from '../../shared/cli/parse';
import { withStores } from '../../shared/cli/run';
import { readFirstLine } from '../../shared/cli/stdin';

interface CreateOptions {
  username: string;
  super?: true;
  role?: number;
  passwordStdin?: true;
  email?: string;
}

/** `platform admin`: administrators, created without the API so that the first ones need no login. */
export function adminCommand(): Command {
  const admin = new Command('admin').description('administrators of the application center');
  admin
    .command('create')
    .description('create an administrator: super, or a member of one role group')
    .requiredOption('--username <name>', 'login name: a letter, then 2 to 31 letters, digits, _ . or -')
    .addOption(new Option('--super', 'holds every permission, in no role group').conflicts('role'))
    .addOption(new Option('--role <id>', 'the role group whose permissions it holds').argParser(parseId))
    .option(
      '--email <address>',
      'where the digest of new applications and scope requests goes, when it holds credential.review',
    )
    .option('--password-stdin', 'read the password from the first line of stdin instead of generating one')
    .action(createAction);
  return admin;
}

async function createAction(options: CreateOptions): Promise<void> {
  if (options.super === undefined && options.role === undefined) {
    throw new Error('admin create needs either --super or --role <id>');
  }
  const fromStdin = options.passwordStdin === true;
  const password = fromStdin ? await passwordFromStdin() : oneTimePassword();
  await withStores(async (stores, ctx) => {
    const created = await createAdmin(
      stores.events,
      argon2Hasher(),
      {
        username: options.username,
        password,
        is_super: options.super === true,
        role_id: options.role ?? null,
        email: options.email ?? null,
      },
      SHELL,
      ctx,
    );
    process.stdout.write(`${describe(created)}\n`);
    if (!fromStdin) {
      process.stdout.write(`Password: ${password}\nIt is not shown again: keep it somewhere safe now.\n`);
    }
  });
}

async function passwordFromStdin(): Promise<string> {
  const line = await readFirstLine();
  if (line === null) throw new Error('--password-stdin: stdin ended before a password line');
  return line;
}

function describe(admin: AdminIdentity): string {
  const standing = admin.is_super ? 'super administrator' : `member of role group ${admin.role_id}`;
  return `Administrator created: id ${admin.id}, username "${admin.username}", ${standing}.`;
}
