import type { Logger } from 'pino';
import { CommandContext } from '../shared/commands/context';
import { handle } from '../shared/commands/handle';
import type { DeferredWork } from '../shared/deferred-work';
import { RateLimiter } from '../stores/ports';
import { AccountDeps } from './account';
import { memberFromLog } from './login';
import { passwordResetMail } from './account-mail';
import { memberDecider, memberStream } from './decider';
import { newMemberLink } from './links';
import { memberReads } from './reads';

export interface ResetRequestDeps extends AccountDeps {
  /** Reset links mailed per member: a flood of requests must not flood the member's mailbox. */
  resetsOfMember: RateLimiter;
  /** Where a request's lookup and mail wait until a while after its answer. */
  resetWork: Pick<DeferredWork, 'defer'>;
}

/** The usernames a login names: a username itself, or the members who gave that e-mail address. */
async function usernamesOf(deps: ResetRequestDeps, login: string): Promise<string[]> {
  if (!login.includes('@')) return [login];
  return (await memberReads(deps.readModels).byEmail(login)).map((member) => member.username);
}

/**
 * Mails a single-use reset link to each member the login names who gave an e-mail address, within
 * the per-member limit. Runs a while after the request is answered (`requestLater`), so whether
 * the login exists changes neither the answer nor its time; what fails is logged.
 */
export async function requestPasswordReset(deps: ResetRequestDeps, login: string, ctx: CommandContext): Promise<void> {
  const sendMail = deps.sendMail;
  if (!sendMail) return;
  for (const username of await usernamesOf(deps, login)) {
    const found = await memberFromLog(deps.events, username);
    if (!found || found.state.email === null) continue;
    const { member_id, email } = found.state;
    if (!(await deps.resetsOfMember.consume(String(member_id))).allowed) continue;
    const { token, link } = newMemberLink(member_id, ctx.now);
    await handle(deps.events, memberStream(username), memberDecider, { type: 'RequestPasswordReset', data: link }, ctx);
    await sendMail(
      email,
      passwordResetMail(
        found.state.username,
        `${deps.publicUrl}/ui/developer/reset?token=${encodeURIComponent(token)}`,
      ),
    );
  }
}

/**
 * Queues the request (`resetWork`), to be decided and mailed a while after the answer: begun as
 * the answer goes, the reads, the append and the mail of a known login would slow the client's
 * next request, and tell by its time that the login exists.
 */
export function requestLater(deps: ResetRequestDeps, login: string, ctx: CommandContext, log: Logger): void {
  deps.resetWork.defer(() =>
    requestPasswordReset(deps, login, ctx).catch((err: unknown) =>
      log.error({ err }, 'a password-reset link could not be recorded or mailed'),
    ),
  );
}
