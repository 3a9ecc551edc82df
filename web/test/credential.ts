import type { Schemas } from '../src/api/client';

/** A credential as the service describes it, by default never applied for; `overrides` set what a test is about. */
export const credentialOf = (overrides: Partial<Schemas['Credential']> = {}): Schemas['Credential'] => ({
  status: 'none',
  apiid: null,
  applied_at: null,
  reviewed_at: null,
  reject_reason: null,
  claimed_at: null,
  key_rotated_at: null,
  purpose: null,
  company: null,
  website: null,
  approved_by_rule: null,
  expires_at: null,
  revoked_at: null,
  revoke_reason: null,
  extension: null,
  leak: null,
  ...overrides,
});
