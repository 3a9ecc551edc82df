import {
  CREDENTIAL_STATUSES,
  credentialDecider,
  type CredentialCommand,
  type CredentialStatus,
} from '../../src/credential/decider';
import { SCOPE_STATUSES } from '../../src/credential/scope-lifecycle';
import { SCOPE_NAMES } from '../../src/credential/scopes';
import { DomainError } from '../../src/shared/domain/decider';
import * as rules from '../../web/src/api/credential-rules';

/**
 * The console offers an action where the service's credential decider would take it: each rule of
 * web/src/api/credential-rules.ts against the decider itself, over every status the decider knows.
 */
const member_id = 7;
const NOW = '2026-11-27T12:00:00.000Z';
const PAST = '2026-11-01T00:00:00.000Z';
const FUTURE = '2027-11-01T00:00:00.000Z';
const SCOPE = SCOPE_NAMES[0]!;

interface Case {
  status: CredentialStatus;
  expires_at: string | null;
  /** Whether an extension request waits for an administrator. */
  extending: boolean;
  scope?: (typeof SCOPE_STATUSES)[number];
}

function stateOf({ status, expires_at, extending, scope }: Case) {
  const keyed = status === 'active' || status === 'approved';
  return {
    ...credentialDecider.initialState,
    status,
    apiid: status === 'active' ? 'ak_aaaaaaaaaaaaaaaaaaaa' : null,
    key_digest: status === 'active' ? 'a'.repeat(64) : null,
    expires_at: keyed ? expires_at : null,
    extension: extending ? { expires_at: FUTURE } : null,
    scopes: scope ? { [SCOPE]: scope } : {},
  };
}

/** The credential as the console reads it from the dashboard or the review list. */
const viewOf = (c: Case) => ({
  status: c.status,
  expires_at: stateOf(c).expires_at,
  extension: c.extending ? { status: 'pending' as const } : null,
});

/** The decider's refusal of the command in this state (a DomainError's reason), or null where it takes it. */
function refusal(c: Case, command: CredentialCommand): string | null {
  try {
    credentialDecider.decide(command, stateOf(c));
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.error;
    throw error;
  }
}
const takes = (c: Case, command: CredentialCommand): boolean => refusal(c, command) === null;

const apply: CredentialCommand = { type: 'ApplyCredential', data: { member_id, username: 'alice', now: NOW } };
const claim: CredentialCommand = {
  type: 'ClaimCredential',
  data: { member_id, apiid: 'ak_bbbbbbbbbbbbbbbbbbbb', key_digest: 'b'.repeat(64), now: NOW },
};
const rotate: CredentialCommand = {
  type: 'RotateKey',
  data: { member_id, key_digest: 'b'.repeat(64), grace_seconds: 0, now: NOW },
};

const cases: Case[] = CREDENTIAL_STATUSES.flatMap((status) =>
  [null, PAST, FUTURE].flatMap((expires_at) => [false, true].map((extending) => ({ status, expires_at, extending }))),
);
const now = Date.parse(NOW);
const named = (c: Case) => `${c.status}, expiry ${c.expires_at ?? 'never'}${c.extending ? ', extension waiting' : ''}`;

describe.each(cases.map((c) => [named(c), c] as const))('a credential %s', (_, c) => {
  const view = viewOf(c);
  const expired = c.expires_at === PAST && (c.status === 'active' || c.status === 'approved');

  it('may apply, claim and rotate exactly where the decider takes it', () => {
    expect(rules.mayApply(view, now)).toBe(takes(c, apply));
    expect(rules.mayClaim(view, now)).toBe(takes(c, claim));
    expect(rules.mayRotate(view, now)).toBe(takes(c, rotate));
  });

  it('has expired where the decider refuses a claim or a rotation as expired, and has a key where the expiry counts', () => {
    const refusedAsExpired = [claim, rotate].some((command) => refusal(c, command) === 'credential_expired');
    expect(rules.expiredAt(view, now) !== null).toBe(refusedAsExpired);
    expect(refusedAsExpired).toBe(expired);
    // A key's expiry changes whether its member may apply again; without a key, a past expiry means nothing.
    expect(rules.hasKey(view)).toBe(
      takes({ ...c, expires_at: PAST }, apply) !== takes({ ...c, expires_at: FUTURE }, apply),
    );
  });

  it('may request scopes and an extension where the decider takes them (scopes: while the key is accepted)', () => {
    const scopes = takes(c, { type: 'RequestScopes', data: { member_id, scopes: [SCOPE], reason: 'a partner site' } });
    // The console does not offer scopes for an expired key, which the service would still take.
    expect(rules.mayRequestScopes(view, now)).toBe(scopes && !expired);
    expect(rules.mayRequestExtension(view)).toBe(
      takes(c, {
        type: 'RequestExtension',
        data: { member_id, expires_at: '2028-01-01T00:00:00.000Z', reason: 'a partner site', now: NOW },
      }),
    );
  });

  it('may be reviewed, revoked, and have its extension decided where the decider takes it', () => {
    expect(rules.mayReview(view)).toBe(
      takes(c, { type: 'ApproveCredential', data: { member_id, expires_at: null, now: NOW } }),
    );
    expect(rules.mayReview(view)).toBe(
      takes(c, { type: 'RejectCredential', data: { member_id, reason: 'not a company' } }),
    );
    expect(rules.mayRevoke(view)).toBe(takes(c, { type: 'RevokeCredential', data: { member_id, reason: 'abuse' } }));
    expect(rules.extensionWaits(view)).toBe(takes(c, { type: 'ApproveExtension', data: { member_id } }));
  });
});

describe.each(['none' as const, ...SCOPE_STATUSES])('a scope %s on an active credential', (scope) => {
  const c: Case = { status: 'active', expires_at: null, extending: false, ...(scope !== 'none' && { scope }) };

  it('may be requested, decided and revoked exactly where the decider takes it', () => {
    expect(rules.mayRequestScope(scope)).toBe(
      takes(c, { type: 'RequestScopes', data: { member_id, scopes: [SCOPE], reason: 'a partner site' } }),
    );
    expect(rules.mayReviewScope(scope)).toBe(takes(c, { type: 'ApproveScope', data: { member_id, scope: SCOPE } }));
    expect(rules.mayReviewScope(scope)).toBe(
      takes(c, { type: 'RejectScope', data: { member_id, scope: SCOPE, reason: 'not needed' } }),
    );
    expect(rules.mayRevokeScope(scope)).toBe(
      takes(c, { type: 'RevokeScope', data: { member_id, scope: SCOPE, reason: 'over' } }),
    );
  });
});
