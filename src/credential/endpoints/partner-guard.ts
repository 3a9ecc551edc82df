import { timingSafeEqual } from 'node:crypto';
import { Middleware } from 'koa';
import { apiKeyDigestBytes, isWellFormedApiKey, keyFingerprint } from '../api-key';
import { isAcceptedAt } from '../grace-period';
import { hasExpiredAt } from '../expiry';
import { ApiKeyDocument } from '../projections/api-keys';
import { AppState } from '../../shared/http/context';
import { HttpError, Refused } from '../../shared/http/envelope';
import { statusOf } from '../../shared/http/errors';
import { CredentialFailures, PartnerQuota } from '../../shared/http/open-api-limit';
import { refused } from '../../shared/http/open-api-refusals';
import { AnsweredCall, PartnerGate, PartnerVerdict } from '../../shared/http/partner-lane';
import { performance } from 'node:perf_hooks';
import { andThen } from '../../shared/eventually';
import {
  CREDENTIAL_EXPIRED,
  CREDENTIAL_LEAKED,
  CREDENTIAL_REVOKED,
  CREDENTIALS_MISSING,
  CREDENTIALS_NOT_ACCEPTED,
  SCOPE_NOT_APPROVED,
} from '../open-api-refusals';

export interface KeyRing {
  /** The claimed credential with this API id, from memory; throws when the ring cannot vouch for it. */
  lookup(apiid: string): ApiKeyDocument | null;
}

/** Where each call with a known API id is counted (in memory: no store call per request). */
export interface UsageCount {
  /** `key`: the fingerprint of the key the call was made with (`keyFingerprint`). */
  record(memberId: number, refused: boolean, key: string): void;
  /** A call whose key did not match: counted apart, not as the credential's use. */
  recordWrongKey(memberId: number): void;
  /** Every answered call of a known API id, kept among its recent calls (`key` null: the key did not match). */
  recordCall(memberId: number, status: number, key: string | null, call: AnsweredCall): void;
}

// Refusals are plain values, built once where they do not vary: a partner hammering with a wrong
// key costs no stack trace per call.
const MISSING = refused(CREDENTIALS_MISSING, 'send both the X-API-ID and the X-API-Key header');
const NOT_ACCEPTED = refused(CREDENTIALS_NOT_ACCEPTED, 'X-API-ID and X-API-Key are not accepted: check both');
const REVOKED = refused(CREDENTIAL_REVOKED, 'this credential was revoked: apply again in the developer center');
const LEAKED = refused(
  CREDENTIAL_LEAKED,
  'this key was found in public and is refused: its owner rotates it in the developer center for a new one',
);

const expired = (expiresAt: string): Refused =>
  refused(
    CREDENTIAL_EXPIRED,
    `this credential expired at ${expiresAt}: ask for an extension or apply again in the developer center`,
  );

const scopeNotApproved = (scope: string): Refused =>
  refused(
    SCOPE_NOT_APPROVED,
    `the scope ${scope} is not approved for this credential: request it in the developer center, or, if it is requested, wait for an administrator's decision`,
  );

const uncounted = () => {};

const wrongKey = (usage: UsageCount, memberId: number) => (status: number, call: AnsweredCall) => {
  usage.recordWrongKey(memberId);
  usage.recordCall(memberId, status, null, call);
};

/** A refusal of the credential, as its count against the client address turned it (the 401, or the 429 past the limit). */
const refuse = (counted: ReturnType<CredentialFailures>, settle: PartnerVerdict['settle']) =>
  andThen(counted, (count): PartnerVerdict => ({ ...count, settle }));

type AcceptedKey = ApiKeyDocument['keys'][number];

// The ring's documents are replaced, never changed, on each event: a key's bytes can be kept beside it.
const digestBytes = new WeakMap<AcceptedKey, Buffer>();

function bytesOf(key: AcceptedKey): Buffer {
  let bytes = digestBytes.get(key);
  if (!bytes) digestBytes.set(key, (bytes = Buffer.from(key.digest, 'hex')));
  return bytes;
}

/** The credential's key the call was made with, when it is accepted now. */
function acceptedKey(entry: ApiKeyDocument, key: string, now: number): AcceptedKey | undefined {
  const offered = apiKeyDigestBytes(key);
  return entry.keys.find((k) => timingSafeEqual(bytesOf(k), offered) && isAcceptedAt(k, now));
}

/**
 * A partner server's call: X-API-ID and X-API-Key (headers only; a key in the URL is never read),
 * checked against the in-memory key ring, then counted against the API id's quota, then the
 * endpoint's scope. 401 when the credential is not accepted, revoked or expired, 429 when the API
 * id is over its rate limit, 403 when the scope is not approved (docs/credentials.md). Each 401 is
 * counted against the client address (`failures`), which past its limit is answered 429 instead.
 *
 * Counted only once the credential is accepted, so that made-up API ids create no counters; and
 * before the scope, because a forbidden call is work done for that partner as much as any other.
 * Every call with the credential's key is recorded for its owner, refused or not, once answered;
 * one with a key that does not match is counted apart (`recordWrongKey`).
 */
export function partnerGate(
  ring: KeyRing,
  quota: PartnerQuota,
  failures: CredentialFailures,
  usage: UsageCount,
): PartnerGate {
  return {
    admit(apiid, key, scope, from) {
      // Every 401 is counted against the client address, and only a 401: an accepted call costs no count.
      if (!apiid || !key) return refuse(failures(from, MISSING), uncounted);
      const entry = ring.lookup(apiid);
      if (!entry) return refuse(failures(from, NOT_ACCEPTED), uncounted);
      const now = Date.now();
      // Anyone who knows an API id can make well-formed keys (the checksum is public): such calls
      // must not make someone else's credential look used. A malformed key is a wrong key too.
      const accepted = isWellFormedApiKey(key) ? acceptedKey(entry, key, now) : undefined;
      if (!accepted) return refuse(failures(from, NOT_ACCEPTED), wrongKey(usage, entry.member_id));
      const fingerprint = keyFingerprint(accepted.digest);
      const settle = (status: number, call: AnsweredCall) => {
        usage.record(entry.member_id, status >= 400, fingerprint);
        usage.recordCall(entry.member_id, status, fingerprint, call);
      };
      if (entry.revoked) return refuse(failures(from, REVOKED), settle);
      if (entry.leaked?.includes(accepted.digest)) return refuse(failures(from, LEAKED), settle);
      if (hasExpiredAt(entry.expires_at, now)) return refuse(failures(from, expired(entry.expires_at!)), settle);
      return andThen(quota(entry.apiid), (count): PartnerVerdict => ({
        refusal: count.refusal ?? (entry.scopes.includes(scope) ? null : scopeNotApproved(scope)),
        fields: count.fields,
        settle,
      }));
    },
  };
}

/** The gate as a koa guard, for the partner calls the lane leaves to the router (HEAD, a query string). */
export function requireScope(gate: PartnerGate, scope: string): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    // ring.lookup may throw (the ring cannot vouch): nothing is counted then, as before the lane.
    const verdict = await gate.admit(ctx.get('X-API-ID'), ctx.get('X-API-Key'), scope, () => ctx.ip);
    for (const [name, value] of verdict.fields) ctx.set(name, value);
    // A handler that throws is told by the status its error is answered with.
    let status: number | undefined;
    try {
      if (verdict.refusal) throw HttpError.from(verdict.refusal);
      await next();
      status = ctx.status;
    } catch (err) {
      status = statusOf(err);
      throw err;
    } finally {
      verdict.settle(status ?? 500, { method: ctx.method, path: ctx.url, latency_ms: performance.now() - started });
    }
  };
}
