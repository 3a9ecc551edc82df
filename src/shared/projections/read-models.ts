import { EventStore, DocumentStore, Position, Scalar } from '../../stores/ports';
import { CredentialDocument, ScopeRequestDocument } from '../../credential/views';
import { AddonDocument } from '../../addon/projection';
import { AdminDocument } from '../../access/projections/admins';
import { MemberGroupDocument, RoleGroupDocument } from '../../access/projections/groups';
import { MemberDocument } from '../../member/projection';

/** What a command just changed is in its read model once the read has waited for it; anything else is a bug. */
export function written<Doc>(doc: Doc | null): Doc {
  if (!doc) throw new Error('the read model lacks the document a command just changed');
  return doc;
}

export interface PositionTracker {
  /**
   * Resolves once the read models hold the event at `position`: every read model, or only the
   * named projection's, so that one projection halted on a poison event does not hold up reads
   * of the others.
   */
  waitFor(position: Position | null | undefined, timeoutMs: number, projection?: string): Promise<void>;
}

/** For a process that runs no projections and only reads the read models as they stand (the CLI). */
export const NOT_WAITING: PositionTracker = { waitFor: async () => {} };

/**
 * The query side. A caller's own reads wait until the projections have caught up with its last
 * write (read-your-writes); the administrators' queues wait for the whole log as it was when the
 * request came in, so a review never misses an application that was already submitted.
 */
export class ReadModels {
  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly tracker: PositionTracker,
    /** This instance's in-memory key ring, which partner calls are checked against. */
    private readonly keyRing: PositionTracker,
    private readonly waitMs: number,
  ) {}

  /** Read-your-writes: only the read model about to be read, so that a halted or lagging other one holds nothing up. */
  private waitFor(position: Position | null | undefined, projection: string): Promise<void> {
    return this.tracker.waitFor(position, this.waitMs, projection);
  }

  /**
   * Waits, at most READ_WAIT_MS, until a key just issued works against this instance. It never
   * fails: the clear key exists only in the answer about to be given, so a key ring that lags or
   * cannot follow must not turn an appended claim or rotation into an error and lose the key.
   */
  async untilKeyWorks(position: Position): Promise<void> {
    await this.keyRing.waitFor(position, this.waitMs).catch(() => undefined);
  }

  async member(id: number, after?: Position): Promise<MemberDocument | null> {
    await this.waitFor(after, 'members');
    return (await this.documents.get<MemberDocument>('members', String(id)))?.doc ?? null;
  }

  async admin(id: number): Promise<AdminDocument | null> {
    return (await this.documents.get<AdminDocument>('admins', String(id)))?.doc ?? null;
  }

  async credential(memberId: number, after?: Position | null): Promise<CredentialDocument | null> {
    await this.waitFor(after, 'credentials');
    return (await this.documents.get<CredentialDocument>('credentials', String(memberId)))?.doc ?? null;
  }

  async scopeRequest(memberId: number, scope: string, after?: Position | null): Promise<ScopeRequestDocument | null> {
    await this.waitFor(after, 'scope_requests');
    return (await this.documents.get<ScopeRequestDocument>('scope_requests', `${memberId}:${scope}`))?.doc ?? null;
  }

  /** Waits until the projection's read model holds every event committed before this call. */
  private async waitForHead(projection: string): Promise<void> {
    await this.waitFor(await this.events.headPosition(), projection);
  }

  async credentials(where: Record<string, Scalar>): Promise<CredentialDocument[]> {
    await this.waitForHead('credentials');
    return (await this.documents.find<CredentialDocument>('credentials', where)).map((d) => d.doc);
  }

  async scopeRequests(where: Record<string, Scalar>): Promise<ScopeRequestDocument[]> {
    await this.waitForHead('scope_requests');
    const found = (await this.documents.find<ScopeRequestDocument>('scope_requests', where)).map((d) => d.doc);
    return found.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.member_id - b.member_id);
  }

  /** The role group as it is now; null for an administrator in none (a super administrator). */
  async roleGroup(id: number | null): Promise<RoleGroupDocument | null> {
    if (id === null) return null;
    return (await this.documents.get<RoleGroupDocument>('role_groups', String(id)))?.doc ?? null;
  }

  /** Every role group, enabled or not, as of every event committed before this call. */
  async roleGroups(): Promise<RoleGroupDocument[]> {
    await this.waitForHead('role_groups');
    return (await this.documents.find<RoleGroupDocument>('role_groups', {})).map((d) => d.doc).sort((a, b) => a.id - b.id);
  }

  /** The installed add-on with this key, as of every event committed before this call; null when not installed. */
  async addon(key: string): Promise<AddonDocument | null> {
    await this.waitForHead('addons');
    return (await this.documents.get<AddonDocument>('addons', key))?.doc ?? null;
  }

  /** Every installed add-on, as of every event committed before this call. */
  async addons(): Promise<AddonDocument[]> {
    await this.waitForHead('addons');
    return (await this.documents.find<AddonDocument>('addons', {})).map((d) => d.doc);
  }

  async memberGroups(): Promise<MemberGroupDocument[]> {
    return (await this.documents.find<MemberGroupDocument>('member_groups', {})).map((d) => d.doc);
  }
}
