import { ActorKind, EventMetadata } from '../domain/metadata';
import { NewEvent } from '../../stores/ports';
import { DomainEvent } from '../domain/decider';
import { schemaVersion } from '../domain/events';

/** Who asks, under which request, and when: everything a command needs that is not its data. */
export interface CommandContext {
  actor: { kind: ActorKind; id: number | string | null };
  requestId: string;
  now: Date;
  /** Reason given with an administrator's decision. */
  reason?: string;
}

export function metadataOf(ctx: CommandContext): EventMetadata {
  return {
    actor: ctx.actor,
    request_id: ctx.requestId,
    time: ctx.now.toISOString(),
    ...(ctx.reason === undefined ? {} : { reason: ctx.reason }),
  };
}

export function toNewEvents(events: DomainEvent[], ctx: CommandContext): NewEvent[] {
  const metadata = metadataOf(ctx);
  return events.map((e) => ({
    type: e.type,
    data: e.data as Record<string, unknown>,
    metadata: { ...metadata, schema_version: schemaVersion(e.type) },
  }));
}
