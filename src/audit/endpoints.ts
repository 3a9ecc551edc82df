import { Readable } from 'node:stream';
import { CredentialDocument, credentialReads, credentialView } from '../credential';
import type { Logger } from 'pino';
import { z } from 'zod';
import { limitParameter } from '../shared/http/pagination';
import { ReadModels } from '../shared/projections/read-models';
import { ActorNames, directoryOf } from './actor-names';
import { auditExport, ExportLine } from './export';
import { HistoryUnreadable, instantSchema, memberHistory, MemberStreams } from './history';
import { DocumentStore, EventStore, InvalidPosition, START } from '../stores/ports';
import { exportLineSchema, historySchema, searchPageSchema } from './schemas';
import { searchLog, searchQuery } from './search';
import { Describe } from './event';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { memberParams } from '../shared/http/params';
import { memberReads } from '../member';
import { SigningKey } from './proof/signing-key';

export interface AuditDeps {
  events: EventStore;
  /** Where the checkpointer keeps the log's Merkle tree, which the proofs read (./proof/tree-store.ts). */
  documents: DocumentStore;
  readModels: ReadModels;
  /** Signs the checkpoints and the export heads (./proof/signing-key.ts). */
  auditKey: SigningKey;
  /** How each event is worded, as its slice registered it. */
  describe: Describe;
  /** Every event type the slices registered: what the search filters by. */
  eventTypes: readonly string[];
  /** Where the slices hold the events about a member: what a member's history reads. */
  memberStreams: MemberStreams;
}

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;

const historyQuery = z.object({
  as_of: instantSchema.optional().meta({
    description:
      "Replay up to this instant (ISO 8601 with a zone): the events until then and the state at that moment. Not more than 5 s ahead of the service's clock: the history holds what has happened",
  }),
});

const exportQuery = z.object({
  from: z
    .string()
    .min(1, 'from is a position from an earlier export; omit it to start at the beginning of the log')
    .max(100, 'from is at most 100 characters')
    .optional()
    .meta({
      description: 'Export the events after this position: the next of an earlier export; omitted, from the beginning',
    }),
  limit: limitParameter(MAX_LIMIT, DEFAULT_LIMIT, 'events'),
});

const memberQuery = z
  .object({
    username: z
      .string()
      .min(1, 'username is empty: give the username, or leave the parameter out')
      .max(64, 'username is at most 64 characters')
      .optional()
      .meta({ description: 'A username, in any case; give exactly one of username and apiid' }),
    apiid: z
      .string()
      .min(1, 'apiid is empty: give an API id (ak_…), or leave the parameter out')
      .max(64, 'apiid is at most 64 characters')
      .optional()
      .meta({
        description:
          'An API id (ak_…) the member claimed, its current one or an earlier one; give exactly one of username and apiid',
      }),
  })
  .refine((query) => (query.username === undefined) !== (query.apiid === undefined), {
    error: 'give username or apiid, one of them',
  });

const foundMemberSchema = z.object({ member_id: z.int().min(1), username: z.string() }).meta({ id: 'FoundMember' });

/** The credential and scopes as the member's dashboard showed them then, and whether its key had expired. */
const dashboardState = ({ credential, expired }: { credential: CredentialDocument | null; expired: boolean }) => ({
  credential: credentialView(credential),
  scopes: credential?.scopes ?? [],
  expired,
});

export const auditor = { kind: 'admin', permission: 'audit.read' } as const;

/** Export lines as newline-delimited JSON; a failure midway is logged and cuts the body short, without the end line. */
async function* ndjson(lines: AsyncGenerator<ExportLine>, log: Logger): AsyncGenerator<string> {
  try {
    for await (const line of lines) yield line;
  } catch (err) {
    log.error({ err }, 'audit export failed midway');
    throw err;
  }
}

/** What auditors read (docs/audit.md): one member's history and their credential's state at an instant, and the whole log. */
export function auditEndpoints(deps: AuditDeps): Endpoint[] {
  const members = memberReads(deps.readModels);
  const credentials = credentialReads(deps.readModels);
  const memberOf = (id: number | null) => (id === null ? null : members.member(id));
  return [
    endpoint({
      method: 'GET',
      path: '/audit/members',
      caller: auditor,
      summary: 'Find a member by username or by API id, for the credential history',
      query: memberQuery,
      response: foundMemberSchema,
      refusals: [
        {
          status: 404,
          reasons: ['member_not_found'],
          when: 'no member has this username, or no claimed credential this API id (member_not_found)',
        },
      ],
      handler: async (_ctx, { query: { username, apiid } }) => {
        const member =
          apiid === undefined
            ? await members.byUsername(username!)
            : await memberOf(await credentials.memberOfApiId(apiid));
        const named = apiid === undefined ? `username "${username}"` : `API id "${apiid}"`;
        if (!member)
          throw new HttpError(404, 'member_not_found', `no member has the ${named}: check it, or give the member id`);
        return { data: { member_id: member.id, username: member.username } };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/credentials/:member_id/history',
      caller: auditor,
      summary:
        "Every event about a member in order (account, credential, scopes), each with its actor; with as_of, the events until then and the credential's state at that instant",
      params: memberParams,
      query: historyQuery,
      response: historySchema,
      refusals: [
        { status: 404, reasons: ['member_not_found'], when: 'no member has this id (member_not_found)' },
        {
          status: 409,
          reasons: ['history_unreadable'],
          when: 'history_unreadable: an event before as_of is not one this version of the service can read; without as_of it is listed, marked invalid',
        },
      ],
      handler: async (_ctx, { params: { member_id }, query: { as_of } }) => {
        const names = new ActorNames(directoryOf(deps.readModels));
        const history = await memberHistory(
          deps.events,
          names,
          deps.describe,
          deps.memberStreams,
          member_id,
          as_of,
        ).catch((err: unknown) => {
          if (err instanceof HistoryUnreadable) throw new HttpError(409, 'history_unreadable', err.message);
          throw err;
        });
        if (!history) {
          throw new HttpError(
            404,
            'member_not_found',
            `no member has the id ${member_id}: find it from a username or an API id (GET /audit/members)`,
          );
        }
        const { as_of: replay, ...timeline } = history;
        if (!replay) return { data: timeline };
        return { data: { ...timeline, as_of: replay.instant, state: dashboardState(replay) } };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/audit/search',
      caller: auditor,
      summary:
        'Events across members by type, actor and time range, a page at a time in the order of the log; a page reads at most 5000 events of the log, so it may hold fewer than limit with next still set',
      query: searchQuery(deps.eventTypes),
      response: searchPageSchema,
      refusals: [
        {
          status: 422,
          reasons: ['invalid_position'],
          when: 'after is not a position of this event log (invalid_position)',
        },
      ],
      handler: async (_ctx, { query }) => {
        const page = await searchLog(
          deps.events,
          new ActorNames(directoryOf(deps.readModels)),
          deps.describe,
          query,
          query.after ?? START,
        ).catch((err: unknown) => {
          if (!(err instanceof InvalidPosition)) throw err;
          throw new HttpError(
            422,
            'invalid_position',
            'after is not a position of this event log: pass the next of an earlier page, or leave it out to start at the beginning',
          );
        });
        return { data: page };
      },
    }),
    endpoint({
      method: 'GET',
      path: '/audit/events',
      caller: auditor,
      summary:
        'The global event log after a position, as newline-delimited JSON, streamed; the last line says where to resume',
      query: exportQuery,
      response: exportLineSchema,
      raw: 'application/x-ndjson',
      refusals: [
        {
          status: 422,
          reasons: ['invalid_position'],
          when: 'from is not a position of this event log (invalid_position)',
        },
      ],
      handler: async (ctx, { query }) => {
        const lines = await auditExport(
          deps.events,
          new ActorNames(directoryOf(deps.readModels)),
          deps.describe,
          query.from ?? START,
          query.limit,
          deps.auditKey,
        ).catch((err: unknown) => {
          if (!(err instanceof InvalidPosition)) throw err;
          throw new HttpError(
            422,
            'invalid_position',
            'from is not a position of this event log: pass the next of an earlier export, or omit from to start at the beginning',
          );
        });
        ctx.type = 'application/x-ndjson';
        ctx.body = Readable.from(ndjson(lines, ctx.state.log));
      },
    }),
  ];
}
