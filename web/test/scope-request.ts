import type { Schemas } from '../src/api/client';

/** A scope request as the review queue lists it, by default alice's pending one for addons.read; `overrides` set what a test is about. */
export const scopeRequestOf = (overrides: Partial<Schemas['ScopeRequest']> = {}): Schemas['ScopeRequest'] => {
  const name = overrides.name ?? overrides.scope ?? 'addons.read';
  return {
    member_id: 7,
    username: 'alice',
    scope: name,
    name,
    reason: 'List the add-ons on our partner site',
    status: 'pending',
    requested_at: '2026-11-23T10:00:00.000Z',
    reviewed_at: null,
    reject_reason: null,
    revoked_at: null,
    revoke_reason: null,
    ...overrides,
  };
};
