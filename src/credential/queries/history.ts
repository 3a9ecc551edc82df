import { z } from 'zod';
import { CredentialDocument } from '../views';
import { credentialStream } from '../decider';
import { EventStore } from '../../stores/ports';
import { ActorNames } from '../../audit/actor-names';
import { AuditEvent, auditEvent } from '../../audit/event';
import { eventsUntil, replayCredential } from './replay';
import { isExpiredAt } from '../expiry';

/** The replay at an instant: the credential then, and whether its key was already refused. */
const stateAt = (credential: CredentialDocument | null, instant: string) => ({
  instant,
  credential,
  expired: credential !== null && isExpiredAt(credential, instant),
});

/** An instant to replay up to: ISO 8601 with a zone, so that it names one instant wherever it is read. */
export const instantSchema = z.iso.datetime({
  offset: true,
  error: 'give an ISO 8601 time with a zone, e.g. 2026-11-22T04:18:52Z or 2026-11-22T12:18:52+08:00',
});

export interface CredentialHistory {
  member_id: number;
  /** The username the member applied under. */
  username: string;
  /** The credential's and its scopes' events in order; with an instant, those that had happened by then. */
  events: AuditEvent[];
  /**
   * With an instant: the credential and its scopes as they stood then (null: not applied yet), and
   * whether its key had expired then, which the status alone does not say.
   */
  as_of?: { instant: string; credential: CredentialDocument | null; expired: boolean };
}

/**
 * Every credential and scope decision of one member, read from the credential stream itself (the
 * record, not a read model), and with an instant the state it left the credential in then.
 * Null when the member never applied, which includes a member that does not exist.
 */
export async function credentialHistory(
  events: EventStore,
  names: ActorNames,
  memberId: number,
  instant?: string,
): Promise<CredentialHistory | null> {
  const stream = await events.readStream(credentialStream(memberId));
  const applied = stream.find((event) => event.type === 'CredentialApplied');
  if (!applied) return null;
  const username = String(applied.data.username);
  names.remember('member', memberId, username);
  const happened = instant === undefined ? stream : eventsUntil(stream, instant);
  return {
    member_id: memberId,
    username,
    events: await Promise.all(happened.map(async (event) => auditEvent(event, await names.of(event.metadata.actor)))),
    ...(instant === undefined ? {} : { as_of: stateAt(replayCredential(happened), instant) }),
  };
}
