import { CommandContext } from '../commands/context';
import { AppContext } from './context';
import { sessionOf } from './session';

/** The context of a command asked for over HTTP: the session's identity, the request id, now. */
export function commandContext(ctx: AppContext): CommandContext {
  const member = sessionOf(ctx).member;
  return {
    actor: member ? { kind: 'member', id: member.id } : { kind: 'system', id: null },
    requestId: ctx.state.requestId,
    now: new Date(),
  };
}
