import { MemberGroupEvent } from '../../src/access/member-group';
import { RoleGroupEvent } from '../../src/access/role-group';
import { CredentialEvent } from '../../src/credential/events';
import { DomainEvent } from '../../src/shared/domain/decider';
import { documentsOf, Projection } from '../../src/shared/projections/projection';
import { RecordedEvent } from '../../src/stores/ports';

/** 10:mm on a fixed day, so that times read as minutes in the tests. */
export const at = (minute: number): string => new Date(Date.UTC(2025, 2, 1, 10, minute)).toISOString();

/** Records events as the event store would: revisions per stream, positions that sort as strings. */
export function eventLog() {
  const events: RecordedEvent[] = [];
  const revisions = new Map<string, number>();
  const append = (stream: string, minute: number, event: DomainEvent): void => {
    const revision = (revisions.get(stream) ?? -1) + 1;
    revisions.set(stream, revision);
    events.push({
      type: event.type,
      data: event.data as Record<string, unknown>,
      metadata: { actor: { kind: 'system', id: null }, request_id: `req-${events.length}`, time: at(minute) },
      stream,
      revision,
      position: String(events.length + 1).padStart(20, '0'),
    });
  };
  return {
    events,
    credential(minute: number, event: CredentialEvent) {
      append(`credential-${event.data.member_id}`, minute, event);
      return this;
    },
    roleGroup(minute: number, event: RoleGroupEvent) {
      append(`role_group-${event.data.role_id}`, minute, event);
      return this;
    },
    memberGroup(minute: number, event: MemberGroupEvent) {
      append(`member_group-${event.data.member_group_id}`, minute, event);
      return this;
    },
    other(minute: number, stream: string, event: DomainEvent) {
      append(stream, minute, event);
      return this;
    },
  };
}

/** Folds events into documents the way the runner does: each id its own document, null deletes. */
export function project<Doc extends object>(projection: Projection<Doc>, events: RecordedEvent[]): Map<string, Doc> {
  const docs = new Map<string, Doc>();
  for (const event of events) {
    for (const id of documentsOf(projection, event)) {
      const doc = projection.evolve(docs.get(id) ?? null, event);
      if (doc) docs.set(id, doc);
      else docs.delete(id);
    }
  }
  return docs;
}

/** Given these events, then a projection's documents: how every projection test reads. */
export function givenEvents<Doc extends object>(projection: Projection<Doc>, events: RecordedEvent[]) {
  const documents = project(projection, events);
  return {
    documents,
    thenDocument(id: string, expected: Doc | Record<string, unknown>) {
      expect(documents.get(id)).toEqual(expected);
    },
    thenNoDocument(id: string) {
      expect(documents.has(id)).toBe(false);
    },
  };
}
