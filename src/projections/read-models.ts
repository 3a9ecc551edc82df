import { EventStore, DocumentStore, Position, Scalar } from '../stores/ports';
import { AddonDocument } from './addons';
import { AdminDocument } from './admins';
import { CredentialDocument } from './credentials';
import { MemberGroupDocument, RoleGroupDocument } from './groups';
import { MemberDocument } from './members';
import { ScopeRequestDocument } from './scope-requests';

export interface PositionTracker {
  waitFor(position: Position | null | undefined, timeoutMs: number): Promise<void>;
}

/** Waits until every tracker has reached the position. */
export function allOf(...trackers: PositionTracker[]): PositionTracker {
  return {
    waitFor: async (position, timeoutMs) => {
      await Promise.all(trackers.map((t) => t.waitFor(position, timeoutMs)));
    },
  };
}

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
    private readonly waitMs: number,
  ) {}

  waitFor(position: Position | null | undefined): Promise<void> {
    return this.tracker.waitFor(position, this.waitMs);
  }

  async member(id: number, after?: Position): Promise<MemberDocument | null> {
    await this.waitFor(after);
    return (await this.documents.get<MemberDocument>('members', String(id)))?.doc ?? null;
  }

  async admin(id: number): Promise<AdminDocument | null> {
    return (await this.documents.get<AdminDocument>('admins', String(id)))?.doc ?? null;
  }

  async credential(memberId: number, after?: Position | null): Promise<CredentialDocument | null> {
    await this.waitFor(after);
    return (await this.documents.get<CredentialDocument>('credentials', String(memberId)))?.doc ?? null;
  }

  async scopeRequest(memberId: number, scope: string, after?: Position | null): Promise<ScopeRequestDocument | null> {
    await this.waitFor(after);
    return (await this.documents.get<ScopeRequestDocument>('scope_requests', `${memberId}:${scope}`))?.doc ?? null;
  }

  /** Waits until the read models hold every event committed before this call. */
  private async waitForHead(): Promise<void> {
    await this.waitFor(await this.events.headPosition());
  }

  async credentials(where: Record<string, Scalar>): Promise<CredentialDocument[]> {
    await this.waitForHead();
    return (await this.documents.find<CredentialDocument>('credentials', where)).map((d) => d.doc);
  }

  async scopeRequests(where: Record<string, Scalar>): Promise<ScopeRequestDocument[]> {
    await this.waitForHead();
    const found = (await this.documents.find<ScopeRequestDocument>('scope_requests', where)).map((d) => d.doc);
    return found.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.member_id - b.member_id);
  }

  async roleGroup(id: number): Promise<RoleGroupDocument | null> {
    return (await this.documents.get<RoleGroupDocument>('role_groups', String(id)))?.doc ?? null;
  }

  /** Every role group, enabled or not, as of every event committed before this call. */
  async roleGroups(): Promise<RoleGroupDocument[]> {
    await this.waitForHead();
    return (await this.documents.find<RoleGroupDocument>('role_groups', {})).map((d) => d.doc).sort((a, b) => a.id - b.id);
  }

  /** The installed add-on with this key, as of every event committed before this call; null when not installed. */
  async addon(key: string): Promise<AddonDocument | null> {
    await this.waitForHead();
    return (await this.documents.get<AddonDocument>('addons', key))?.doc ?? null;
  }

  /** Every installed add-on, as of every event committed before this call. */
  async addons(): Promise<AddonDocument[]> {
    await this.waitForHead();
    return (await this.documents.find<AddonDocument>('addons', {})).map((d) => d.doc);
  }

  async memberGroups(): Promise<MemberGroupDocument[]> {
    return (await this.documents.find<MemberGroupDocument>('member_groups', {})).map((d) => d.doc);
  }
}
