import { ATTR_DB_OPERATION_NAME } from '@opentelemetry/semantic-conventions';
import { DomainEvent } from '../domain/decider';
import { inSpan } from '../tracing';
import { CommandContext } from './context';

/**
 * One step of a command, in a span of its own under the command's: `read` the stream, `decide`
 * (its span lists the event types decided), `append` them.
 */
export interface CommandSteps {
  read<T>(work: () => Promise<T>): Promise<T>;
  decide<Event extends DomainEvent>(work: () => Event[]): Promise<Event[]>;
  append<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * Runs a command in its span, named by the command's type and tagged with its aggregate and
 * request id (never a member: a span is read by operators), its steps in child spans.
 */
export function inCommandSpan<T>(
  command: unknown,
  stream: string,
  ctx: CommandContext,
  run: (steps: CommandSteps) => Promise<T>,
): Promise<T> {
  const attributes = { 'platform.aggregate': categoryOf(stream), 'platform.request_id': ctx.requestId };
  return inSpan(spanName(command, stream), attributes, ctx.trace, (_, here) =>
    run({
      read: (work) => inSpan('read', { [ATTR_DB_OPERATION_NAME]: 'read_stream' }, here, work),
      decide: (work) =>
        inSpan('decide', {}, here, (span) => {
          const events = work();
          span.setAttribute(
            'platform.events',
            events.map((e) => e.type),
          );
          return events;
        }),
      append: (work) => inSpan('append', { [ATTR_DB_OPERATION_NAME]: 'append' }, here, work),
    }),
  );
}

/** The aggregate a stream belongs to (`credential` of `credential-42`): a span names no member. */
const categoryOf = (stream: string) => stream.split('-')[0] ?? stream;

/** The command's type (`ApproveCredential`), which every command of the service has. */
const spanName = (command: unknown, stream: string): string => {
  const type = (command as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : `command ${categoryOf(stream)}`;
};
