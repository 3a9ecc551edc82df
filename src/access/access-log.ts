import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EventOf, EventSchemas } from '../shared/domain/events';
import { normaliseUsername } from '../member';
import { EventStore } from '../stores/ports';
import { appendDecided, CommandContext, recordedAfter, streamEnd } from '../shared/commands/context';
import { loadStream, retryOnConflict } from '../shared/commands/handle';

/**
 * Who signed in to the console, who failed to, and whose sessions ended (docs/administrators.md,
 * "Access is audited"). These record what happened rather than decide anything: no decider folds them.
 */
export const accessLogEventSchemas = {
  AdministratorSignedIn: z.object({ admin_id: z.int().min(1), address: z.string() }),
  /**
   * `count` wrong passwords (or unknown usernames) for `username` from `address` in the minute
   * starting at `minute`: one event a minute, however many tries (./sign-in-failures.ts).
   */
  AdministratorSignInFailed: z.object({
    username: z.string(),
    address: z.string(),
    minute: z.iso.datetime(),
    count: z.int().min(1),
  }),
  /** `sessions` ended: by the administrator's own sign-out, or by a disable. */
  AdministratorSignedOut: z.object({
    admin_id: z.int().min(1),
    reason: z.enum(['sign_out', 'disabled']),
    sessions: z.int().min(0),
  }),
} satisfies EventSchemas;

export type AccessLogEvent = EventOf<typeof accessLogEventSchemas>;

export type SignInFailure = Extract<AccessLogEvent, { type: 'AdministratorSignInFailed' }>['data'];

/** One administrator's sign-ins and sign-outs. */
const sessionsStream = (admin_id: number) => `admin_access-${admin_id}`;

/**
 * One minute's failures of one username from one address: created once (no_stream), so two
 * processes folding the same minute append one event between them.
 */
const failuresStream = ({ username, address, minute }: SignInFailure) =>
  `admin_sign_in_failed-${minute.slice(0, 16)}-${createHash('sha256')
    .update(`${normaliseUsername(username)}\n${address}`)
    .digest('hex')
    .slice(0, 32)}`;

/** Appends a record after the stream's last event, read backwards: the stream is never folded. */
async function record(store: EventStore, stream: string, event: AccessLogEvent, ctx: CommandContext): Promise<string> {
  return retryOnConflict(stream, 8, async () => {
    const [last] = await loadStream(store, stream, { direction: 'backwards', maxCount: 1 });
    return (await appendDecided(store, stream, [event], recordedAfter(ctx, last), streamEnd(last))).position;
  });
}

export const recordSignIn = (store: EventStore, data: { admin_id: number; address: string }, ctx: CommandContext) =>
  record(store, sessionsStream(data.admin_id), { type: 'AdministratorSignedIn', data }, ctx);

export const recordSignOut = (
  store: EventStore,
  data: { admin_id: number; reason: 'sign_out' | 'disabled'; sessions: number },
  ctx: CommandContext,
) => record(store, sessionsStream(data.admin_id), { type: 'AdministratorSignedOut', data }, ctx);

/** Appends a minute's failures; throws WrongExpectedVersion when another process already recorded that minute. */
export async function recordSignInFailures(store: EventStore, data: SignInFailure, ctx: CommandContext): Promise<void> {
  await appendDecided(
    store,
    failuresStream(data),
    [{ type: 'AdministratorSignInFailed', data }],
    ctx,
    streamEnd(undefined),
  );
}
