import { z } from 'zod';
import { CredentialDocument, credentialStream, isExpiredAt } from '../credential';
import { EventStore, RecordedEvent } from '../stores/ports';
import type { MemberNaming } from '../shared/slice';
import { ActorNames } from './actor-names';
import { AuditEvent, auditEvent, Describe, storedMetadata } from './event';
import { eventsUntil, replayCredential } from './replay';

/** The replay at an instant: the credential then, and whether its key was already refused. */
const stateAt = (credential: CredentialDocument | null, instant: string) => ({
  instant,
  credential,
  expired: credential !== null && isExpiredAt(credential, instant),
});

/** How far ahead of this server's clock an instant may be: the asker's clock may run a little fast. */
const CLOCK_SKEW_MS = 5000;

/**
 * An instant to replay up to: ISO 8601 with a zone, so that it names one instant wherever it is
 * read; and not in the future, where a state (an expiry passed, say) would be a guess presented
 * as history.
 */
export const instantSchema = z.iso
  .datetime({
    offset: true,
    error: 'give an ISO 8601 time with a zone, e.g. 2026-11-22T04:18:52Z or 2026-11-22T12:18:52+08:00',
    // A time that is not one is not also said to be in the future.
    abort: true,
  })
  .refine((instant) => Date.parse(instant) <= Date.now() + CLOCK_SKEW_MS, {
    error: 'is in the future: the history holds what has happened; give a time up to now',
  });

/** The streams holding events about one member, as the slices registered them (Registry.memberStreams). */
export type MemberStreams = (member: MemberNaming) => string[];

export interface MemberHistory {
  member_id: number;
  username: string;
  /**
   * Every event about the member in the order of the log: their account's (registration,
   * passwords, profile, e-mail address, whoever changed it), their credential's and its scopes';
   * with an instant, those that had happened by then.
   */
  events: AuditEvent[];
  /**
   * With an instant: the credential and its scopes as they stood then (null: not applied yet), and
   * whether its key had expired then, which the status alone does not say.
   */
  as_of?: { instant: string; credential: CredentialDocument | null; expired: boolean };
}

/**
 * The state at an instant cannot be replayed: a credential event before it does not fit what this
 * version of the service reads (a newer release's, or one damaged in the store). The timeline still lists it,
 * marked invalid; a state folded past it, or short of it, would be a history that never happened.
 */
export class HistoryUnreadable extends Error {
  constructor(reason: string) {
    super(
      `the state at this instant cannot be replayed: ${reason}. The history without an instant lists every event, this one marked invalid`,
    );
    this.name = 'HistoryUnreadable';
  }
}

/**
 * The credential at the instant, folded from its own stream's events only: an account event
 * changes nothing of it, and one this version cannot read does not make it unreadable.
 */
function credentialAt(
  memberId: number,
  happened: RecordedEvent[],
  timeline: AuditEvent[],
  instant: string,
): ReturnType<typeof stateAt> {
  const stream = credentialStream(memberId);
  const invalid = timeline.find((event) => event.stream === stream && event.invalid !== undefined);
  if (invalid)
    throw new HistoryUnreadable(
      `event ${invalid.type} #${invalid.revision} at position ${invalid.position} is not readable`,
    );
  try {
    return stateAt(replayCredential(happened.filter((event) => event.stream === stream)), instant);
  } catch (err) {
    throw new HistoryUnreadable(err instanceof Error ? err.message : String(err));
  }
}

/**
 * The member's username, which names their account's stream: as the members read model holds it,
 * or, where it lags (or no projector has run, as the command line may find), as their credential
 * application recorded it. Null when neither knows the id.
 */
async function usernameOf(events: EventStore, names: ActorNames, memberId: number): Promise<string | null> {
  const known = await names.of({ kind: 'member', id: memberId });
  if (known !== null) return known;
  const applied = (await events.readStream(credentialStream(memberId))).find(
    (event) => event.type === 'CredentialApplied',
  );
  if (!applied) return null;
  const username = String(applied.data.username);
  names.remember('member', memberId, username);
  return username;
}

const inLogOrder = (a: RecordedEvent, b: RecordedEvent) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : 0;

/**
 * Every event about one member, read from the streams the slices hold them in (the record, not a
 * read model), and with an instant the state it left the credential in then. Each stream is cut
 * at the instant on its own (eventsUntil), then the streams are merged in the order of the log.
 * Null when no member has the id.
 */
export async function memberHistory(
  events: EventStore,
  names: ActorNames,
  describe: Describe,
  memberStreams: MemberStreams,
  memberId: number,
  instant?: string,
): Promise<MemberHistory | null> {
  const username = await usernameOf(events, names, memberId);
  if (username === null) return null;
  const streams = await Promise.all(
    memberStreams({ id: memberId, username }).map((stream) => events.readStream(stream)),
  );
  const happened = streams
    .flatMap((stream) => (instant === undefined ? stream : eventsUntil(stream, instant)))
    .sort(inLogOrder);
  const timeline = await Promise.all(
    happened.map(async (event) => auditEvent(event, await names.of(storedMetadata(event).actor), describe)),
  );
  return {
    member_id: memberId,
    username,
    events: timeline,
    ...(instant === undefined ? {} : { as_of: credentialAt(memberId, happened, timeline, instant) }),
  };
}
