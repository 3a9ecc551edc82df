import { CollectionSpec, DocumentStore, Position, RecordedEvent } from '../../stores/ports';
import { ProjectionLag } from './lag';
import { stamp } from './stamp';

/** Events a projection could not apply, kept until a later run applies them. */
export const DEAD_LETTERS: CollectionSpec = { name: 'dead_letters', indexes: ['resolved_at'] };

export interface DeadLetter {
  projection: string;
  position: Position;
  event_type: string;
  stream: string;
  revision: number;
  error: string;
  /** When it was last met. */
  time: string;
  /** When a run of the projection applied the event after all: a fix was deployed, or a rebuild passed it. */
  resolved_at: string | null;
}

/** A projection's documentIds or evolve threw on this event. */
export class PoisonEvent extends Error {
  constructor(
    readonly projection: string,
    readonly event: RecordedEvent,
    readonly reason: string,
  ) {
    super(
      `projection ${projection} cannot apply ${event.type} at position ${event.position} (stream ${event.stream}): ${reason}`,
    );
    this.name = 'PoisonEvent';
  }
}

/**
 * What a reader waiting for a position at or past a poison event gets: the read model will not
 * reach it until an operator acts, so the API answers "not available" rather than stale data.
 */
export class ProjectionHalted extends ProjectionLag {
  constructor(readonly poison: PoisonEvent) {
    super(poison.event.position);
    this.message = `${poison.message}; it is halted there (see dead_letters in /health)`;
    this.name = 'ProjectionHalted';
  }
}

const idOf = (projection: string, position: Position): string => `${projection}@${position}`;

export async function recordDeadLetter(
  documents: DocumentStore,
  poison: PoisonEvent,
  now = new Date(),
): Promise<DeadLetter> {
  const { event } = poison;
  const letter: DeadLetter = {
    projection: poison.projection,
    position: event.position,
    event_type: event.type,
    stream: event.stream,
    revision: event.revision,
    error: poison.reason,
    time: now.toISOString(),
    resolved_at: null,
  };
  await documents.write([
    {
      collection: DEAD_LETTERS.name,
      id: idOf(letter.projection, letter.position),
      doc: { ...letter },
      position: stamp(now),
    },
  ]);
  return letter;
}

/** Unresolved dead letters, oldest position first; of one projection when named. */
export async function openDeadLetters(documents: DocumentStore, projection?: string): Promise<DeadLetter[]> {
  const open = (await documents.find<DeadLetter>(DEAD_LETTERS.name, { resolved_at: null })).map((d) => d.doc);
  return open
    .filter((l) => projection === undefined || l.projection === projection)
    .sort((a, b) => (a.position < b.position ? -1 : 1));
}

export async function resolveDeadLetters(
  documents: DocumentStore,
  letters: DeadLetter[],
  now = new Date(),
): Promise<void> {
  if (letters.length === 0) return;
  const resolved_at = now.toISOString();
  await documents.write(
    letters.map((l) => ({
      collection: DEAD_LETTERS.name,
      id: idOf(l.projection, l.position),
      doc: { ...l, resolved_at },
      position: stamp(now),
    })),
  );
}

export interface DeadLetterHealth {
  /** Unresolved dead letters: each means a projection is halted or could not be rebuilt. */
  count: number;
  /** The one met most recently. */
  latest: DeadLetter | null;
}

export async function deadLetterHealth(documents: DocumentStore): Promise<DeadLetterHealth> {
  const open = await openDeadLetters(documents);
  const latest = open.reduce<DeadLetter | null>((a, b) => (a && a.time >= b.time ? a : b), null);
  return { count: open.length, latest };
}
