/**
 * What an event did, in words, with the details an auditor needs to tell one decision from another
 * (the API id, the expiry, the grace period): the same text in `platform history`, the history
 * and export answers and the console's timeline. Reads `data` as stored too, so an event that does
 * not fit its schema still gets a line.
 */
export function describeEvent(type: string, data: Record<string, unknown>): string {
  const scope = String(data.scope);
  const expiry = (at: unknown) => (typeof at === 'string' ? `the key expires at ${at}` : 'the key never expires');
  switch (type) {
    case 'CredentialApplied':
      return 'applied for API credentials';
    case 'CredentialApproved':
      return `approved the application; ${expiry(data.expires_at)}`;
    case 'CredentialRejected':
      return 'rejected the application';
    case 'CredentialClaimed':
      return `claimed the credential, API id ${String(data.apiid)}`;
    case 'KeyRotated':
      return `rotated the key of API id ${String(data.apiid)}; ${rotatedAway(data)}`;
    case 'CredentialRevoked':
      return 'revoked the credential and its live scopes';
    case 'ScopeRequested':
      return `requested the scope ${scope}`;
    case 'ScopeApproved':
      return `approved the scope ${scope}`;
    case 'ScopeRejected':
      return `rejected the scope ${scope}`;
    case 'ScopeRevoked':
      return `revoked the scope ${scope}`;
    case 'CredentialExpiring':
      return `warned the member, ${String(data.days_before)} ${data.days_before === 1 ? 'day' : 'days'} ahead, that ${expiry(data.expires_at)}`;
    case 'CredentialExpired':
      return `the key expired at ${String(data.expires_at)}`;
    case 'ExtensionRequested':
      return `asked to move the expiry to ${String(data.expires_at)}`;
    case 'ExtensionApproved':
      return `approved the extension; ${expiry(data.expires_at)}`;
    case 'ExtensionRejected':
      return 'rejected the extension';
    default:
      // Events of the other slices, in the export: their type in words.
      return type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  }
}

/**
 * Which rotated-away keys a rotation left accepted. `earlier_keys` is an array from the rotations
 * that decided the older keys too (their digests already removed), null or absent before.
 */
function rotatedAway(data: Record<string, unknown>): string {
  const until = data.previous_key_valid_until;
  const earlier = Array.isArray(data.earlier_keys) ? data.earlier_keys.map((key) => String((key as { valid_until?: unknown }).valid_until)) : null;
  if (typeof until !== 'string') return earlier ? 'the previous one and every earlier one stopped at once' : 'the previous one stopped at once';
  const previous = `the previous one stayed valid until ${until}`;
  if (!earlier || earlier.length === 0) return previous;
  return `${previous}, ${earlier.length === 1 ? 'an earlier one' : `${earlier.length} earlier ones`} until ${earlier.join(' and ')}`;
}
