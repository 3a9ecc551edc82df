import { createHash } from 'node:crypto';
import type { AccessLogEvent } from './events';
import { normaliseUsername } from '../member';
import { EventStore } from '../stores/ports';
import { appendDecided, CommandContext, recordedAfter, streamEnd } from '../shared/commands/context';
import { loadStream, retryOnConflict } from '../shared/commands/handle';

export type { AccessLogEvent } from './events';

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
