import { timingSafeEqual } from 'node:crypto';
import { Middleware } from 'koa';
import { apiKeyDigest, isWellFormedApiKey } from '../api-key';
import { ScopeName } from '../scopes';
import { isAcceptedAt } from '../grace-period';
import { hasExpiredAt } from '../expiry';
import { ApiKeyDocument } from '../projections/api-keys';
import { AppContext, AppState } from '../../shared/http/context';
import { HttpError } from '../../shared/http/envelope';

export interface KeyRing {
  /** The claimed credential with this API id, from memory; throws when the ring cannot vouch for it. */
  lookup(apiid: string): ApiKeyDocument | null;
}

function accepts(entry: ApiKeyDocument, key: string, now: number): boolean {
  const offered = Buffer.from(apiKeyDigest(key), 'hex');
  return entry.keys.some((k) => timingSafeEqual(Buffer.from(k.digest, 'hex'), offered) && isAcceptedAt(k, now));
}

/** Where each call with a known API id is counted (in memory: no store call per request). */
export interface UsageCount {
  record(memberId: number, refused: boolean): void;
}

/** Counts an accepted call against its API id's rate limit; throws the refusal when it is over. */
export type PartnerQuota = (ctx: AppContext, apiid: string) => Promise<void>;

/**
 * A partner server's call: X-API-ID and X-API-Key (headers only; a key in the URL is never read),
 * checked against the in-memory key ring, then counted against the API id's quota, then the
 * endpoint's scope. 401 when the credential is not accepted, revoked or expired, 429 when the API
 * id is over its rate limit, 403 when the scope is not approved (specification §5.6).
 *
 * Counted only once the credential is accepted, so that made-up API ids create no counters; and
 * before the scope, because a forbidden call is work done for that partner as much as any other.
 */
export function requireScope(ring: KeyRing, scope: ScopeName, quota: PartnerQuota, usage: UsageCount): Middleware<AppState> {
  return async (ctx, next) => {
    const apiid = ctx.get('X-API-ID');
    const key = ctx.get('X-API-Key');
    if (!apiid || !key) {
      throw new HttpError(401, 'api_credentials_missing', 'send both the X-API-ID and the X-API-Key header');
    }
    const entry = isWellFormedApiKey(key) ? ring.lookup(apiid) : null;
    if (!entry) throw notAccepted();
    // Counted against the credential its API id names, refused or not: its owner sees every call made with it.
    let refused = true;
    try {
      await checkThenServe(entry, key, scope, ctx, quota, next);
      refused = ctx.status >= 400;
    } finally {
      usage.record(entry.member_id, refused);
    }
  };
}

const notAccepted = () => new HttpError(401, 'api_credentials_invalid', 'X-API-ID and X-API-Key are not accepted: check both');

async function checkThenServe(
  entry: ApiKeyDocument,
  key: string,
  scope: ScopeName,
  ctx: AppContext,
  quota: PartnerQuota,
  next: () => Promise<unknown>,
): Promise<void> {
  const now = Date.now();
  if (!accepts(entry, key, now)) throw notAccepted();
  if (entry.revoked) {
    throw new HttpError(401, 'credential_revoked', 'this credential was revoked: apply again in the developer center');
  }
  if (hasExpiredAt(entry.expires_at, now)) {
    throw new HttpError(401, 'credential_expired', `this credential expired at ${entry.expires_at}: ask for an extension or apply again in the developer center`);
  }
  await quota(ctx, entry.apiid);
  if (!entry.scopes.includes(scope)) {
    throw new HttpError(403, 'scope_not_approved', `the scope ${scope} is not approved for this credential: request it in the developer center`);
  }
  await next();
}
