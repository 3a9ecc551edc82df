import type { components } from '../../generated/contract';

/**
 * What a member or an administrator may do with a credential, as the console decides which
 * action to offer: the service's own rules (the credential decider), in one place.
 * test/web/credential-rules.test.ts holds each of them against the decider, over every status.
 * Only type imports here: that test runs this module beside the server's code.
 */
type Schemas = components['schemas'];
type Keyed = Pick<Schemas['Credential'], 'status' | 'expires_at'>;
type Extending = Keyed & { extension?: Pick<Schemas['ExtensionRequest'], 'status'> | null };
/** A scope as the member's offer lists it: "none" until requested. */
type OfferStatus = Schemas['Scope']['status'] | 'none';

/** Approved or active: there is a key (or one ready to claim), and so an expiry that means something. */
export const hasKey = (c: Keyed): boolean => c.status === 'approved' || c.status === 'active';

/**
 * When an approved or active credential's key stopped being accepted, or null while it is. Expiry
 * is a time, not a decision: the status stays "active" past it, so the words must say it.
 */
export function expiredAt(c: Keyed, now = Date.now()): string | null {
  return hasKey(c) && c.expires_at && Date.parse(c.expires_at) <= now ? c.expires_at : null;
}

/** A credential's status in the words and colour the console uses: "active, expired" once the key is refused. */
export function statusOf(c: Keyed, now = Date.now()): { words: string; tone: string } {
  return expiredAt(c, now) ? { words: `${c.status}, expired`, tone: 'expired' } : { words: c.status, tone: c.status };
}

/** Never applied, turned down, or its key refused for good (revoked or expired): the member may apply again. */
export const mayApply = (c: Keyed, now = Date.now()): boolean =>
  c.status === 'none' || c.status === 'rejected' || c.status === 'revoked' || expiredAt(c, now) !== null;

/** An approval not yet claimed, nor run out. */
export const mayClaim = (c: Keyed, now = Date.now()): boolean => c.status === 'approved' && !expiredAt(c, now);

/** A key in use and still accepted: it may be rotated. */
export const mayRotate = (c: Keyed, now = Date.now()): boolean => c.status === 'active' && !expiredAt(c, now);

/**
 * Scopes belong to an active credential whose key is accepted. The service takes a request for an
 * expired one too, which no call could use: the console offers the extension or a new application.
 */
export const mayRequestScopes = (c: Keyed, now = Date.now()): boolean => c.status === 'active' && !expiredAt(c, now);

/** A scope the member may ask for: never asked, or turned down or revoked; not while one waits or holds. */
export const mayRequestScope = (status: OfferStatus): boolean =>
  status === 'none' || status === 'rejected' || status === 'revoked';

/** An active key that expires, with no extension request waiting. */
export const mayRequestExtension = (c: Extending): boolean =>
  c.status === 'active' && c.expires_at !== null && c.extension?.status !== 'pending';

/** An administrator approves or rejects a pending application only. */
export const mayReview = (c: Keyed): boolean => c.status === 'pending';

/** An approval given by mistake is withdrawn as an active key is: by revoking it. */
export const mayRevoke = (c: Keyed): boolean => hasKey(c);

/** An extension request waits for an administrator while the credential is active (a revocation leaves the last one as it was). */
export const extensionWaits = <C extends Extending>(c: C): c is C & { extension: NonNullable<C['extension']> } =>
  c.status === 'active' && c.extension?.status === 'pending';

/** An administrator decides a pending scope request, and revokes an approved scope. */
export const mayReviewScope = (status: OfferStatus): boolean => status === 'pending';
export const mayRevokeScope = (status: OfferStatus): boolean => status === 'approved';
