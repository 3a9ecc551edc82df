import { z } from 'zod';
import { limitParameter } from '../shared/http/pagination';
import { EventStore, Position, RecordedEvent } from '../stores/ports';
import { ActorNames } from './actor-names';
import { AuditEvent, auditEvent, Describe, storedMetadata } from './event';

/**
 * The audit search across members (docs/audit.md): the events of the whole log of one type, by one
 * actor and in a time range, a page at a time in the log's order. Each page reads the log from its
 * cursor on and stops at a full page or at SCAN events read, whichever comes first: a search that
 * finds little stays bounded, and its page says where to go on (`next`) even when it found none.
 */
export const SCAN = 5000;
const BATCH = 500;

const instant = (name: string) =>
  z.iso
    .datetime({
      offset: true,
      error: `${name} must be an ISO 8601 time with a zone, e.g. 2026-11-22T04:18:52Z or 2026-11-22T12:18:52+08:00`,
    })
    .optional()
    .meta({
      description: `Only events recorded ${name === 'from' ? 'at or after' : 'before'} this instant (ISO 8601 with a zone)`,
    });

export function searchQuery(eventTypes: readonly string[]) {
  return z
    .object({
      type: z
        .enum(eventTypes as [string, ...string[]], { error: 'type must be one of the event types the contract lists' })
        .optional()
        .meta({ description: 'Only events of this type' }),
      actor: z
        .string()
        .trim()
        .min(1, 'actor is empty: give a username, or leave it out')
        .max(64, 'actor is at most 64 characters')
        .optional()
        .meta({
          description: 'Only events whose actor (a member or an administrator) has this username, in any case',
        }),
      from: instant('from'),
      to: instant('to'),
      limit: limitParameter(200, 50, 'events'),
      after: z
        .string()
        .min(1, 'after is empty: pass the next of the page before, or leave it out')
        .max(100, 'after is at most 100 characters')
        .optional()
        .meta({
          description: 'The next of the page before: the events after it; omitted, from the beginning of the log',
        }),
    })
    .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), {
      error: 'from must be before to',
      path: ['from'],
    });
}
export type SearchQuery = z.infer<ReturnType<typeof searchQuery>>;

/** One event found, with the member it is about when it is about one: the link to their timeline. */
export type FoundEvent = AuditEvent & { member_id: number | null };

/** Whether a stored event passes the filters that need no name looked up. */
function passes(event: RecordedEvent, query: SearchQuery): boolean {
  if (query.type && event.type !== query.type) return false;
  if (!query.from && !query.to) return true;
  const time = Date.parse(String(storedMetadata(event).time));
  return (!query.from || time >= Date.parse(query.from)) && (!query.to || time < Date.parse(query.to));
}

export async function searchLog(
  events: EventStore,
  names: ActorNames,
  describe: Describe,
  query: SearchQuery,
  from: Position,
): Promise<{ list: FoundEvent[]; next: string | null }> {
  const wanted = query.actor?.toLowerCase();
  const list: FoundEvent[] = [];
  let cursor = from;
  let read = 0;
  while (read < SCAN) {
    const batch = await events.readAll(cursor, Math.min(BATCH, SCAN - read));
    if (batch.length === 0) return { list, next: null };
    for (const event of batch) {
      read += 1;
      cursor = event.position;
      if (!passes(event, query)) continue;
      const username = await names.of(storedMetadata(event).actor);
      if (wanted !== undefined && username?.toLowerCase() !== wanted) continue;
      const memberId = (event.data as Record<string, unknown>).member_id;
      list.push({
        ...auditEvent(event, username, describe),
        member_id: typeof memberId === 'number' ? memberId : null,
      });
      if (list.length === query.limit) return { list, next: cursor };
    }
  }
  return { list, next: cursor };
}
