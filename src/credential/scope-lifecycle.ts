import type { CredentialEvent } from './events';

export const SCOPE_STATUSES = ['pending', 'approved', 'rejected', 'revoked'] as const;
export type ScopeStatus = (typeof SCOPE_STATUSES)[number];

/** The credential events that can change a scope's status; every other one leaves every scope as it is. */
export const SCOPE_CHANGING_EVENTS = [
  'CredentialApplied',
  'CredentialRevoked',
  'ScopeRequested',
  'ScopeApproved',
  'ScopeRejected',
  'ScopeRevoked',
] as const;

export const changesScopes = (event: CredentialEvent): boolean =>
  (SCOPE_CHANGING_EVENTS as readonly string[]).includes(event.type);

const SET_BY = {
  ScopeRequested: 'pending',
  ScopeApproved: 'approved',
  ScopeRejected: 'rejected',
  ScopeRevoked: 'revoked',
} as const;

/** The scope a credential event names, if it names one. */
export function scopeNamed(event: CredentialEvent): string | undefined {
  return 'scope' in event.data ? event.data.scope : undefined;
}

/**
 * A scope's status after one credential event: the scope lifecycle in one place, for the decider
 * and every read model alike. The scope's own request, approval, rejection and revocation set it;
 * a revoked credential takes it down with it while it is live (pending or approved); a new
 * application clears it (undefined), since no scope carries over to a new credential.
 */
export function scopeStatusAfter(
  scope: string,
  status: ScopeStatus | undefined,
  event: CredentialEvent,
): ScopeStatus | undefined {
  switch (event.type) {
    case 'CredentialApplied':
      return undefined;
    case 'CredentialRevoked':
      return status === 'pending' || status === 'approved' ? 'revoked' : status;
    case 'ScopeRequested':
    case 'ScopeApproved':
    case 'ScopeRejected':
    case 'ScopeRevoked':
      return event.data.scope === scope ? SET_BY[event.type] : status;
    default:
      return status;
  }
}

/** Every scope's status after the event, the scope it names included; cleared ones are gone. */
export function scopesAfter(scopes: Record<string, ScopeStatus>, event: CredentialEvent): Record<string, ScopeStatus> {
  if (!changesScopes(event)) return scopes;
  const named = scopeNamed(event);
  const names = named === undefined || named in scopes ? Object.keys(scopes) : [...Object.keys(scopes), named];
  const after: Record<string, ScopeStatus> = {};
  for (const name of names) {
    const status = scopeStatusAfter(name, scopes[name], event);
    if (status !== undefined) after[name] = status;
  }
  return after;
}
