import { z } from 'zod';
import type { EventOf, EventSchemas, EventUpcasters } from '../shared/domain/events';

/**
 * The events of a member's credential stream (./decider.ts decides them): the schema of each one's
 * `data` now, and the upcasters from the versions stored before. How each is told to auditors,
 * members and webhooks is in ./wording.ts; ./slice.ts registers both.
 */
const memberIdSchema = z.int().min(1);
/** The approval rule an approval came from, named as it was then (a rule's name may be reused later). */
const ruleSchema = z.object({ id: z.string(), name: z.string() }).nullable();
const byAdministrator = <T extends Record<string, unknown>>(data: T) => ({ ...data, rule: data.rule ?? null });

export const credentialEventSchemas = {
  /** purpose, company, website: what the member said of who asks and why; null when not said. */
  CredentialApplied: z.object({
    member_id: memberIdSchema,
    username: z.string(),
    purpose: z.string().nullable(),
    company: z.string().nullable(),
    website: z.string().nullable(),
  }),
  /**
   * expires_at: when the key claimed after this approval stops being accepted; null for never.
   * rule: the approval rule that approved it at once (its actor is then that rule); null: an administrator.
   */
  CredentialApproved: z.object({ member_id: memberIdSchema, expires_at: z.string().nullable(), rule: ruleSchema }),
  CredentialRejected: z.object({ member_id: memberIdSchema, reason: z.string() }),
  CredentialClaimed: z.object({
    member_id: memberIdSchema,
    apiid: z.string(),
    key_digest: z.string(),
    expires_at: z.string().nullable(),
  }),
  KeyRotated: z.object({
    member_id: memberIdSchema,
    apiid: z.string(),
    key_digest: z.string(),
    previous_key_digest: z.string(),
    /** Until when the previous key is still accepted; null when it stopped at once. */
    previous_key_valid_until: z.string().nullable(),
    /**
     * The keys of earlier rotations still accepted after this one, newest first, each until when
     * (src/credential/grace-period.ts). Null for rotations recorded before a rotation decided
     * this: each earlier key then stayed accepted until its own grace period ended.
     */
    earlier_keys: z.array(z.object({ digest: z.string(), valid_until: z.string() })).nullable(),
  }),
  CredentialRevoked: z.object({ member_id: memberIdSchema, reason: z.string() }),
  // Scope names stay plain strings here: a scope later removed from the registry must not make
  // the credential streams that once held it unreadable.
  ScopeRequested: z.object({ member_id: memberIdSchema, scope: z.string(), reason: z.string() }),
  ScopeApproved: z.object({ member_id: memberIdSchema, scope: z.string(), rule: ruleSchema }),
  ScopeRejected: z.object({ member_id: memberIdSchema, scope: z.string(), reason: z.string() }),
  ScopeRevoked: z.object({ member_id: memberIdSchema, scope: z.string(), reason: z.string() }),
  // Told by the system as time passes, so that mail and webhooks follow them from the log.
  CredentialExpiring: z.object({ member_id: memberIdSchema, expires_at: z.string(), days_before: z.int().min(1) }),
  CredentialExpired: z.object({ member_id: memberIdSchema, expires_at: z.string() }),
  ExtensionRequested: z.object({ member_id: memberIdSchema, expires_at: z.string(), reason: z.string() }),
  ExtensionApproved: z.object({ member_id: memberIdSchema, expires_at: z.string() }),
  ExtensionRejected: z.object({ member_id: memberIdSchema, reason: z.string() }),
  /**
   * A key of this credential was found where others can read it (./leaks/). Never the key: its
   * digest, which is what the service keeps of it. `accepted`: whether the key was still accepted
   * then; `quarantined`: whether the open API refuses it from now on (LEAKED_KEY_ACTION).
   */
  KeyLeakReported: z.object({
    member_id: memberIdSchema,
    apiid: z.string(),
    key_digest: z.string(),
    key_fingerprint: z.string(),
    url: z.string(),
    source: z.string(),
    note: z.string().nullable(),
    accepted: z.boolean(),
    quarantined: z.boolean(),
  }),
} satisfies EventSchemas;

export type CredentialEvent = EventOf<typeof credentialEventSchemas>;

export const credentialUpcasters = {
  // Version 1 is the rotation before grace periods existed: the previous key stopped being
  // accepted at once, which version 2 says with a null previous_key_valid_until. Events stored
  // before versions were recorded also read as version 1, and those may already hold the field.
  KeyRotated: [
    (v1) => ({ ...v1, previous_key_valid_until: v1.previous_key_valid_until ?? null }),
    // Version 2 kept every earlier key until its own grace period ended, which null says.
    (v2) => ({ ...v2, earlier_keys: null }),
  ],
  // Version 1 is from before keys expired: they never did. Version 2 is from before approval
  // rules: an administrator decided each.
  CredentialApproved: [(v1) => ({ ...v1, expires_at: null }), byAdministrator],
  ScopeApproved: [byAdministrator],
  // Version 1 is from before an application said who asks and why.
  CredentialApplied: [(v1) => ({ purpose: null, company: null, website: null, ...v1 })],
  CredentialClaimed: [(v1) => ({ ...v1, expires_at: null })],
} satisfies EventUpcasters;
