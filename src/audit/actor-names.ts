import { ReadModels } from '../shared/projections/read-models';
import { accessReads } from '../access';
import { memberReads } from '../member';
import { EventMetadata } from '../shared/domain/metadata';

/** Where usernames come from: the members and administrators read models. */
export interface Directory {
  member(id: number): Promise<{ username: string } | null>;
  admin(id: number): Promise<{ username: string } | null>;
}

/** The directory over the members' and the administrators' read models, as they stand. */
export const directoryOf = (reads: ReadModels): Directory => ({ ...memberReads(reads), ...accessReads(reads) });

type RecordedActor = EventMetadata['actor'];

/**
 * The usernames of the members and administrators that events name as actors, each looked up
 * once per answer however many events it acted in. Read models are read as they stand, without
 * waiting: an account created a moment ago may still be unnamed (null), never wrongly named.
 */
export class ActorNames {
  private readonly known = new Map<string, Promise<string | null>>();

  constructor(private readonly directory: Directory) {}

  /** A username the caller already holds, e.g. the one a credential application recorded. */
  remember(kind: 'member' | 'admin', id: number, username: string): void {
    this.known.set(`${kind}:${id}`, Promise.resolve(username));
  }

  /** Null for the system, the command line, an unknown account, or an actor the event does not name readably. */
  of(stored: unknown): Promise<string | null> {
    const actor = stored as Partial<RecordedActor> | null | undefined;
    if (
      typeof actor !== 'object' ||
      actor === null ||
      (actor.kind !== 'member' && actor.kind !== 'admin') ||
      typeof actor.id !== 'number'
    )
      return Promise.resolve(null);
    const key = `${actor.kind}:${actor.id}`;
    let name = this.known.get(key);
    if (!name) {
      name = this.lookUp(actor.kind, actor.id);
      this.known.set(key, name);
    }
    return name;
  }

  private async lookUp(kind: 'member' | 'admin', id: number): Promise<string | null> {
    const account = kind === 'member' ? await this.directory.member(id) : await this.directory.admin(id);
    return account?.username ?? null;
  }
}
