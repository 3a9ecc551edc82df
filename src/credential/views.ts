import { z } from 'zod';
import { CREDENTIAL_STATUSES } from './decider';
import { SCOPE_STATUSES } from './scope-lifecycle';

/**
 * The credential's views, one zod schema each: the read model's document type, the empty state
 * and the response schemas of the contract all derive from it, so they cannot drift apart.
 */
const instant = z.iso.datetime();
const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

export const credentialStatusSchema = z.enum(CREDENTIAL_STATUSES);
export const scopeStatusSchema = z.enum(SCOPE_STATUSES);

// A string, not the registry's enum: decisions on a scope later retired stay readable.
const scopeName = z.string().meta({ description: 'Scope name, e.g. addons.read' });

const scopeReviewFields = {
  status: scopeStatusSchema,
  reason: z.string().meta({ description: "The member's purpose of use" }),
  requested_at: instant,
  reviewed_at: nullable(instant),
  reject_reason: nullable(z.string()),
  revoked_at: nullable(instant),
  revoke_reason: nullable(z.string()),
};

/** One scope of the member's credential, as the dashboard shows it. */
export const scopeSchema = z.object({ name: scopeName, ...scopeReviewFields }).meta({ id: 'Scope' });
export type ScopeView = z.infer<typeof scopeSchema>;

/** One scope request: the scope_requests read model's document (its field `scope` is stored as is). */
const scopeRequestDocumentSchema = z.object({ member_id: z.int().min(1), scope: scopeName, ...scopeReviewFields });
export type ScopeRequestDocument = z.infer<typeof scopeRequestDocumentSchema>;

/**
 * One scope request, as administrators review it: the scope both as `scope` (the queue's field) and
 * as `name` (as in the dashboard's scopes, and as the console reads it), and whose it is.
 */
export const scopeRequestSchema = scopeRequestDocumentSchema
  .extend({
    name: scopeName,
    username: nullable(z.string()).meta({
      description: "The member's username; null only while the credentials read model has not caught up",
    }),
  })
  .meta({ id: 'ScopeRequest' });

export function scopeRequestView(
  doc: ScopeRequestDocument,
  username: string | null,
): z.infer<typeof scopeRequestSchema> {
  return { ...doc, name: doc.scope, username };
}

/** A request to move the key's expiry later, and its decision. */
const extensionSchema = z
  .object({
    status: z.enum(['pending', 'approved', 'rejected']),
    expires_at: instant.meta({ description: 'The expiry asked for' }),
    reason: z.string(),
    requested_at: instant,
    reviewed_at: nullable(instant),
    reject_reason: nullable(z.string()),
  })
  .meta({ id: 'ExtensionRequest' });

/** Where a key was found in public, and what became of it (docs/credentials.md, "A key found in public"). */
const leakSchema = z
  .object({
    key_fingerprint: z.string().meta({ description: "The first 8 hex digits of the key's SHA-256, never the key" }),
    url: z.string().meta({ description: 'Where it was found, as the report says; may be empty' }),
    source: z.string(),
    reported_at: instant,
    quarantined: z.boolean().meta({ description: 'Whether the open API refuses it (401 credential_leaked)' }),
  })
  .meta({ id: 'KeyLeak' });

/** A member's credential application with its scopes: the credentials read model's document. */
const credentialDocumentSchema = z.object({
  member_id: z.int().min(1),
  username: z.string(),
  status: credentialStatusSchema.exclude(['none']),
  apiid: nullable(z.string()),
  // Nullable in the contract, where the dashboard shows a member who never applied.
  applied_at: nullable(instant),
  purpose: nullable(z.string()).meta({ description: 'What the member said they will use the API for; null: not said' }),
  company: nullable(z.string()).meta({ description: 'The company the member applied for; null: not said' }),
  website: nullable(z.string()).meta({ description: "The applicant's website (http or https); null: not said" }),
  approved_by_rule: nullable(z.object({ id: z.string(), name: z.string() })).meta({
    description: 'The approval rule that approved the application at once; null: an administrator decided it',
  }),
  reviewed_at: nullable(instant),
  reject_reason: nullable(z.string()),
  claimed_at: nullable(instant),
  key_rotated_at: nullable(instant),
  expires_at: nullable(instant).meta({
    description: 'When the key stops being accepted (401 credential_expired); null: never',
  }),
  revoked_at: nullable(instant),
  revoke_reason: nullable(z.string()),
  extension: nullable(extensionSchema).meta({
    description: "The member's last request to move the expiry later; null: none since the approval",
  }),
  leak: nullable(leakSchema).meta({
    description: 'A key of this credential reported found in public, until the next rotation; null: none',
  }),
  scopes: z.array(scopeSchema),
});
export type CredentialDocument = z.infer<typeof credentialDocumentSchema>;

/** A credential application, as administrators review it: the document without its scopes, listed apart. */
export const applicationSchema = credentialDocumentSchema.omit({ scopes: true }).meta({ id: 'CredentialApplication' });

/** The member's own credential, as the dashboard shows it: `none` before the first application. */
export const credentialSchema = credentialDocumentSchema
  .omit({ member_id: true, username: true, scopes: true })
  .extend({ status: credentialStatusSchema })
  .meta({ id: 'Credential' });
export type CredentialView = z.infer<typeof credentialSchema>;

/** An application that says nothing of who asks. */
export const NO_APPLICANT = { purpose: null, company: null, website: null } as const;

/** A new application: no review, no key, no revocation yet. */
export const NOTHING_DECIDED = {
  apiid: null,
  approved_by_rule: null,
  reviewed_at: null,
  reject_reason: null,
  claimed_at: null,
  key_rotated_at: null,
  expires_at: null,
  revoked_at: null,
  revoke_reason: null,
  extension: null,
  leak: null,
} as const satisfies Partial<CredentialView>;

/** The dashboard before any application. */
const NO_CREDENTIAL: CredentialView = { status: 'none', applied_at: null, ...NO_APPLICANT, ...NOTHING_DECIDED };

/** A credential as the member's dashboard shows it. */
export function credentialView(doc: CredentialDocument | null): CredentialView {
  if (!doc) return NO_CREDENTIAL;
  const { member_id: _member, username: _username, scopes: _scopes, ...view } = doc;
  return view;
}

export type ApplicationView = z.infer<typeof applicationSchema>;

/** An application as the administrators' list shows it: who, and where it stands. */
export function applicationView(doc: CredentialDocument): ApplicationView {
  const { scopes: _scopes, ...view } = doc;
  return view;
}
