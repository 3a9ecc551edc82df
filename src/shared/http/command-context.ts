import { CommandContext } from '../commands/context';
import { AppContext } from './context';

/** The context of a command asked for over HTTP: who asks, the request id, now, and a decision's reason. */
export function commandContext(ctx: AppContext, actor: CommandContext['actor'], reason?: string): CommandContext {
  return {
    actor,
    requestId: ctx.state.requestId,
    now: new Date(),
    ...(reason === undefined ? {} : { reason }),
    ...(ctx.state.trace && { trace: ctx.state.trace }),
    ...(ctx.state.idempotency && { idempotency: ctx.state.idempotency }),
  };
}
