import { holdsPermission } from '../access';
import { Position, RecordedEvent } from '../stores/ports';
import { Mail } from '../shared/mail';
import { visible } from '../shared/visible';
import type { CredentialEvent } from '../credential';
import { scopeStatusAfter } from '../credential';

/** One new application or scope request waiting for the reviewers' next digest. */
export interface DigestItem {
  position: Position;
  /** When it arrived (the event's time): the first one waiting opens a reviewer's window. */
  at: string;
  kind: 'application' | 'scope';
  member_id: number;
  username: string;
  scope: string | null;
  reason: string | null;
}

/**
 * The digest notifier's own document: what arrived and is not yet mailed to every reviewer, and
 * per administrator what was last mailed, so a restart does not mail it again.
 */
export interface DigestState {
  revision: number;
  /** The last event collected: an event replayed after a crash is not listed twice. */
  collected_up_to: Position;
  items: DigestItem[];
  sent: Record<string, { at: string; up_to: Position }>;
}

export const EMPTY_DIGEST: DigestState = { revision: 0, collected_up_to: '', items: [], sent: {} };

export interface ReviewerCandidate {
  id: number;
  username: string;
  is_super: boolean;
  role_id: number | null;
  email: string | null;
}

export type RoleGroups = Map<number, { enabled: boolean; permissions: string[] }>;

/** Administrators who hold credential.review now and have an address. */
export function reviewersOf(
  admins: ReviewerCandidate[],
  groups: RoleGroups,
): (ReviewerCandidate & { email: string })[] {
  return admins.filter(
    (a): a is ReviewerCandidate & { email: string } =>
      a.email !== null &&
      holdsPermission(a, a.role_id === null ? null : (groups.get(a.role_id) ?? null), 'credential.review'),
  );
}

/** Whether reviewers are told about the event: a new application or scope request. */
export const isArrival = (event: RecordedEvent): boolean =>
  event.type === 'CredentialApplied' || event.type === 'ScopeRequested';

/** The digest line an arrival (isArrival) makes. */
export function digestItemOf(event: RecordedEvent, username: string): DigestItem {
  const base = { position: event.position, at: event.metadata.time, member_id: Number(event.data.member_id), username };
  if (event.type === 'CredentialApplied') return { ...base, kind: 'application', scope: null, reason: null };
  return { ...base, kind: 'scope', scope: String(event.data.scope), reason: String(event.data.reason) };
}

/**
 * The items still to review after the event. A digest headed "To review" lists no application an
 * administrator approved or rejected meanwhile, nor a scope request no longer pending (decided,
 * taken down with its revoked credential, or cleared by a new application, by the scope
 * lifecycle's own rule): the reviewer would open the queue and find nothing.
 */
export function stillUndecided(items: DigestItem[], event: RecordedEvent): DigestItem[] {
  const member = Number(event.data.member_id);
  const decides = (item: DigestItem): boolean => {
    if (item.member_id !== member) return false;
    if (item.kind === 'application') return event.type === 'CredentialApproved' || event.type === 'CredentialRejected';
    // As stored, not decoded: the rule reads only the event's type and the scope it names.
    return scopeStatusAfter(item.scope ?? '', 'pending', event as unknown as CredentialEvent) !== 'pending';
  };
  return items.some(decides) ? items.filter((item) => !decides(item)) : items;
}

/**
 * What a reviewer is to be mailed now, or nothing: the items after what was last mailed to them,
 * once the first of those waited a whole window and the last mail is a window old.
 */
export function dueFor(state: DigestState, adminId: number, now: number, windowMs: number): DigestItem[] {
  const last = state.sent[String(adminId)];
  const waiting = state.items.filter((i) => i.position > (last?.up_to ?? ''));
  if (waiting.length === 0) return [];
  const opened = Date.parse(waiting[0]!.at);
  const lastMail = last ? Date.parse(last.at) : -Infinity;
  return now >= opened + windowMs && now >= lastMail + windowMs ? waiting : [];
}

/** Keeps only what some reviewer has still to be mailed: nobody else is ever told about the rest. */
export function pruned(state: DigestState, reviewerIds: number[]): DigestItem[] {
  const upTo = reviewerIds.map((id) => state.sent[String(id)]?.up_to ?? '');
  return state.items.filter((i) => upTo.some((u) => i.position > u));
}

/** One line per application or scope request: a member who applied twice in one window is listed once, with the latest. */
function latestOfEach(items: DigestItem[]): DigestItem[] {
  const latest = new Map(items.map((i) => [`${i.kind}:${i.member_id}:${i.scope ?? ''}`, i]));
  return [...latest.values()];
}

export function digestMail(items: DigestItem[], publicUrl: string): Mail {
  const ui = `${publicUrl.replace(/\/$/, '')}/ui`;
  const listed = latestOfEach(items);
  const applications = listed.filter((i) => i.kind === 'application');
  const scopes = listed.filter((i) => i.kind === 'scope');
  const sections: string[] = [];
  if (applications.length > 0) {
    const lines = applications.map((i) => `- member ${i.member_id}, ${visible(i.username)}`);
    sections.push(
      `New credential applications (${applications.length}):\n${lines.join('\n')}\nReview them: ${ui}/admin/credentials`,
    );
  }
  if (scopes.length > 0) {
    // The reason is the member's own text: escaped, it stays inside its quotes on its one line.
    const lines = scopes.map(
      (i) =>
        `- member ${i.member_id}, ${visible(i.username)}: ${visible(i.scope ?? '')}, because "${visible(i.reason ?? '')}"`,
    );
    sections.push(`New scope requests (${scopes.length}):\n${lines.join('\n')}\nReview them: ${ui}/admin/scopes`);
  }
  const counts = [
    applications.length > 0 ? `${applications.length} application(s)` : null,
    scopes.length > 0 ? `${scopes.length} scope request(s)` : null,
  ].filter(Boolean);
  return {
    subject: `To review: ${counts.join(' and ')}`,
    text: `Hello,\n\nthese arrived since your last digest.\n\n${sections.join('\n\n')}\n`,
  };
}
