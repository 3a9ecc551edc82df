import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EventSchemas } from './events';
import { readAlike } from './labels';

/**
 * A space of names unique as they read (usernames of members, of administrators, role-group
 * names): each name claims a stream per look-alike key (labels.ts, lookAlikeKeys), appended with
 * the revision it was read at, so of two names that read alike, asked for at the same instant in
 * any process, the event store lets one claim through. The owning slice registers its events.
 */
export interface NameSpace {
  /** The streams' category: `<category>-<digest of the key>`. */
  category: string;
  /** The event that takes a key for a name. */
  claimed: string;
  /** The event that gives a key back, when what the name was for could not be created. */
  released: string;
  /** The field of the claimant stream's first event that holds its name (`username`, `name`). */
  field: string;
}

export const nameClaimSchema = z.object({
  /** The name as given, NFKC-normalised. */
  name: z.string(),
  /** The stream of what the name is for (a member's, an administrator's): the claim is abandoned while it has none. */
  claimant: z.string(),
});

export type NameClaim = z.infer<typeof nameClaimSchema>;

/** The events of a name space, for the slice that owns it to register (as sequenceEventSchemas). */
export function nameClaimEventSchemas(space: NameSpace): EventSchemas {
  return { [space.claimed]: nameClaimSchema, [space.released]: z.object({ name: z.string() }) };
}

/** How the audit trail tells a space's claims: `what` names the kind of name ("the username"). */
export function nameClaimWording(space: NameSpace, what: string) {
  return {
    [space.claimed]: {
      describe: (data: Record<string, unknown>) =>
        `claimed ${what} "${String(data.name)}", so that no name reading like it can be taken`,
    },
    [space.released]: {
      describe: (data: Record<string, unknown>) =>
        `gave back ${what} "${String(data.name)}": what it was claimed for was not created`,
    },
  };
}

/** A key's stream: named by a digest, as a key may hold any character, a hyphen or a slash among them. */
export const claimStream = (space: NameSpace, key: string): string =>
  `${space.category}-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;

/**
 * How long a claim whose claimant stream was never written stays held: what it was for failed
 * between the claim and its creation (a crash, an outage), and the name is free again after it.
 */
export const ABANDONED_AFTER_MS = 60_000;

/**
 * The name holding a key, from the key's last event and what its claimant stream holds, or null
 * when the key is free:
 * - a claim whose claimant was created holds the key while the claimant's own name reads like the
 *   claim's (a role group may have lost its id to another group, whose name then holds nothing);
 * - a claim whose claimant is not written yet holds it for a minute (the creation is under way),
 *   except for the same claimant: a retry of that creation, or one racing it for the same stream,
 *   which that stream's own `no_stream` append settles.
 */
export function holder(
  space: NameSpace,
  last: { type: string; data: Record<string, unknown>; metadata: { time: string } } | undefined,
  claimantName: string | null,
  wanted: { claimant: string; now: Date },
): string | null {
  if (last === undefined || last.type !== space.claimed) return null;
  const claim = nameClaimSchema.parse(last.data);
  if (claimantName !== null) return readAlike(claimantName, claim.name) ? claimantName : null;
  if (claim.claimant === wanted.claimant) return null;
  const abandoned = wanted.now.getTime() - Date.parse(last.metadata.time) > ABANDONED_AFTER_MS;
  return abandoned ? null : claim.name;
}
