import { CredentialDocument } from '../projections/credentials';

/** A credential as the member's dashboard shows it; `none` before the first application. */
export function credentialView(doc: CredentialDocument | null) {
  if (!doc) {
    return {
      status: 'none' as const,
      apiid: null,
      applied_at: null,
      reviewed_at: null,
      reject_reason: null,
      claimed_at: null,
      key_rotated_at: null,
      revoked_at: null,
      revoke_reason: null,
    };
  }
  const { member_id: _member, username: _username, scopes: _scopes, ...view } = doc;
  return view;
}

/** An application as the administrators' list shows it: who, and where it stands; scopes are listed apart. */
export function applicationView(doc: CredentialDocument) {
  const { scopes: _scopes, ...view } = doc;
  return view;
}
