import { Command, InvalidArgumentError } from 'commander';
import { CredentialDocument } from '../credential';
import { NOT_WAITING, ReadModels } from '../shared/projections/read-models';
import { ActorNames, directoryOf } from './actor-names';
import { Actor, AuditEvent, Describe } from './event';
import { instantSchema, MemberHistory, memberHistory, MemberStreams } from './history';
import { parseId } from '../shared/cli/parse';
import { withStores } from '../shared/cli/run';
import { formatTable } from '../shared/cli/table';
import { visible } from '../shared/visible';

interface HistoryOptions {
  member: number;
  asOf?: string;
}

/** `platform history`: an auditor's timeline of every event about one member, read from the event log. */
export function historyCommand(describe: Describe, memberStreams: MemberStreams): Command {
  return new Command('history')
    .description('every event about a member (account, credential, scopes) as a timeline: who did what, when and why')
    .requiredOption('--member <id>', 'the member id', parseId)
    .option(
      '--as-of <time>',
      'ISO 8601 time with a zone: the timeline up to then, and the state at that instant',
      parseInstant,
    )
    .action((options: HistoryOptions) =>
      withStores(async (stores) => {
        // Usernames as the read models hold them now: nothing to wait for outside the API.
        const names = new ActorNames(
          directoryOf(new ReadModels(stores.events, stores.documents, NOT_WAITING, NOT_WAITING, 0)),
        );
        const history = await memberHistory(
          stores.events,
          names,
          describe,
          memberStreams,
          options.member,
          options.asOf,
        );
        if (!history) throw new Error(`no member has the id ${options.member}: there is no history (member_not_found)`);
        process.stdout.write(`${formatHistory(history)}\n`);
      }),
    );
}

function parseInstant(value: string): string {
  const parsed = instantSchema.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0]!.message}.`);
  return parsed.data;
}

function formatHistory(history: MemberHistory): string {
  const { member_id, username, events, as_of } = history;
  const title = `History of member ${member_id} (${visible(username)})${as_of ? ` up to ${as_of.instant}` : ''}: ${events.length} events`;
  const rows = events.map((event) => [
    event.time ?? '(no time recorded)',
    actorName(event.actor),
    whatHappened(event),
    event.reason ?? '',
  ]);
  const timeline =
    events.length > 0 ? formatTable(['TIME', 'ACTOR', 'WHAT HAPPENED', 'REASON'], rows) : '(nothing had happened yet)';
  return [
    title,
    timeline,
    ...(as_of ? ['', `State at ${as_of.instant}:`, ...stateLines(as_of.credential, as_of.expired).map(visible)] : []),
  ].join('\n');
}

function actorName(actor: Actor | null): string {
  if (actor === null) return '(no actor recorded)';
  const { kind, id, username } = actor;
  if (kind === 'member' || kind === 'admin')
    return username === null ? `${kind} #${String(id)}` : `${kind} ${username} (#${String(id)})`;
  return id === null ? kind : `${kind} ${String(id)}`;
}

function whatHappened({ summary, invalid }: AuditEvent): string {
  return invalid === undefined ? summary : `${summary} [stored event invalid: ${invalid}]`;
}

function stateLines(credential: CredentialDocument | null, expired: boolean): string[] {
  if (!credential) return ['  credential: none (not applied yet)'];
  const why = credential.reject_reason ?? credential.revoke_reason;
  const expiry = expired ? `, expired at ${credential.expires_at}` : '';
  const lines = [
    `  credential: ${credential.status}${expiry}${credential.apiid ? `, API id ${credential.apiid}` : ''}${why ? ` (${why})` : ''}`,
  ];
  for (const scope of credential.scopes) {
    const scopeWhy = scope.reject_reason ?? scope.revoke_reason;
    lines.push(`  scope ${scope.name}: ${scope.status}${scopeWhy ? ` (${scopeWhy})` : ''}`);
  }
  if (credential.scopes.length === 0) lines.push('  scopes: none');
  return lines;
}
