import { CredentialDocument, NOTHING_DECIDED } from '../projections/credentials';

/** A credential as the member's dashboard shows it; `none` before the first application. */
export function credentialView(doc: CredentialDocument | null) {
  if (!doc) return { status: 'none' as const, applied_at: null, ...NOTHING_DECIDED };
  const { member_id: _member, username: _username, scopes: _scopes, ...view } = doc;
  return view;
}

/** An application as the administrators' list shows it: who, and where it stands; scopes are listed apart. */
export function applicationView(doc: CredentialDocument) {
  const { scopes: _scopes, ...view } = doc;
  return view;
}
