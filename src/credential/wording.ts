import type { Mail, MemberMail } from '../shared/mail';
import type { EventDefinition } from '../shared/slice';
import type { RecordedEvent } from '../stores/ports';
import type { CredentialEvent } from './events';

/**
 * How each credential event is told: in the audit trail (`describe`: the same text in
 * `platform history`, the history and export answers and the console's timeline, read from `data`
 * as stored, so an event that does not fit its schema still gets a line), in the mail to the member
 * (`mail`), and to webhooks (`webhook`). Listed in the order webhooks list their event types.
 */
export type Wording = Omit<EventDefinition, 'schema' | 'upcasters'>;

const expiry = (at: unknown) => (typeof at === 'string' ? `the key expires at ${at}` : 'the key never expires');

// The mails end the reason with a full stop of their own: one the reviewer typed is dropped, so a
// reason "incomplete." does not end in "..".
/** An approval an approval rule made: the rule by id and name, as it was named then. */
const byRule = (data: Record<string, unknown>): string => {
  const rule = data.rule as { id?: unknown; name?: unknown } | null | undefined;
  return rule ? ` at once by the approval rule "${String(rule.name)}" (${String(rule.id)})` : '';
};

/** Who asks, as the application said it. */
const applicant = (data: Record<string, unknown>): string => {
  const who = [
    typeof data.company === 'string' && ` for ${data.company}`,
    typeof data.website === 'string' && ` (${data.website})`,
  ].filter(Boolean);
  const why = typeof data.purpose === 'string' ? `; purpose: ${JSON.stringify(data.purpose)}` : '';
  return who.join('') + why;
};

const reasonOf = (event: Pick<RecordedEvent, 'data' | 'metadata'>): string =>
  String(event.data.reason ?? event.metadata.reason ?? 'no reason was given')
    .trim()
    .replace(/[.]+$/, '');

const mail =
  (
    subject: (data: Record<string, unknown>) => string,
    text: (event: Pick<RecordedEvent, 'data' | 'metadata'>) => string,
  ): MemberMail =>
  (event): Mail => ({ subject: subject(event.data), text: text(event) });

export const credentialWording: Record<CredentialEvent['type'], Wording> = {
  CredentialApplied: {
    webhook: 'credential.applied',
    describe: (data) => `applied for API credentials${applicant(data)}`,
  },
  CredentialApproved: {
    webhook: 'credential.approved',
    describe: (data) => `approved the application${byRule(data)}; ${expiry(data.expires_at)}`,
    mail: mail(
      () => 'Your API credential application was approved',
      ({ data }) =>
        `your application was approved: claim your API key in the developer center.${data.expires_at ? ` The key will expire at ${String(data.expires_at)}.` : ''}`,
    ),
  },
  CredentialRejected: {
    webhook: 'credential.rejected',
    describe: () => 'rejected the application',
    mail: mail(
      () => 'Your API credential application was rejected',
      (event) => `your application was rejected. The reason: ${reasonOf(event)}.\nYou can apply again.`,
    ),
  },
  CredentialClaimed: {
    webhook: 'credential.claimed',
    describe: (data) => `claimed the credential, API id ${String(data.apiid)}`,
  },
  KeyRotated: {
    webhook: 'credential.rotated',
    describe: (data) => `rotated the key of API id ${String(data.apiid)}; ${rotatedAway(data)}`,
  },
  CredentialRevoked: {
    webhook: 'credential.revoked',
    describe: () => 'revoked the credential and its live scopes',
    mail: mail(
      () => 'Your API credential was revoked',
      (event) => `your API credential was revoked and is refused from now on. The reason: ${reasonOf(event)}.`,
    ),
  },
  CredentialExpiring: {
    webhook: 'credential.expiring',
    describe: (data) =>
      `warned the member, ${String(data.days_before)} ${data.days_before === 1 ? 'day' : 'days'} ahead, that ${expiry(data.expires_at)}`,
    mail: mail(
      (data) => `Your API key expires in ${String(data.days_before)} day(s)`,
      ({ data }) =>
        `your API key expires at ${String(data.expires_at)}. Ask for an extension, or apply again, before then: calls made with it afterwards are refused with 401 credential_expired.`,
    ),
  },
  CredentialExpired: {
    webhook: 'credential.expired',
    describe: (data) => `the key expired at ${String(data.expires_at)}`,
    mail: mail(
      () => 'Your API key expired',
      ({ data }) =>
        `your API key expired at ${String(data.expires_at)}: calls made with it are refused with 401 credential_expired. Apply again in the developer center.`,
    ),
  },
  ScopeRequested: { webhook: 'scope.requested', describe: (data) => `requested the scope ${String(data.scope)}` },
  ScopeApproved: {
    webhook: 'scope.approved',
    describe: (data) => `approved the scope ${String(data.scope)}${byRule(data)}`,
    mail: mail(
      (data) => `The scope ${String(data.scope ?? '')} was approved`,
      ({ data }) => `the scope ${String(data.scope ?? '')} was approved for your API credential.`,
    ),
  },
  ScopeRejected: {
    webhook: 'scope.rejected',
    describe: (data) => `rejected the scope ${String(data.scope)}`,
    mail: mail(
      (data) => `The scope ${String(data.scope ?? '')} was rejected`,
      (event) => `the scope ${String(event.data.scope ?? '')} was rejected. The reason: ${reasonOf(event)}.`,
    ),
  },
  ScopeRevoked: {
    webhook: 'scope.revoked',
    describe: (data) => `revoked the scope ${String(data.scope)}`,
    mail: mail(
      (data) => `The scope ${String(data.scope ?? '')} was revoked`,
      (event) => `the scope ${String(event.data.scope ?? '')} was revoked. The reason: ${reasonOf(event)}.`,
    ),
  },
  ExtensionRequested: { describe: (data) => `asked to move the expiry to ${String(data.expires_at)}` },
  ExtensionApproved: {
    describe: (data) => `approved the extension; ${expiry(data.expires_at)}`,
    mail: mail(
      () => 'Your key expiry was extended',
      ({ data }) => `your request was approved: your API key now expires at ${String(data.expires_at)}.`,
    ),
  },
  KeyLeakReported: {
    webhook: 'credential.leaked',
    describe: (data) =>
      `reported the key ${String(data.key_fingerprint)} found at ${where(data)}; ${leakOutcome(data)}`,
    mail: mail(
      () => 'Your API key was found in public',
      ({ data }) =>
        `your API key ${String(data.key_fingerprint)} (API id ${String(data.apiid)}) was found at ${where(data)}. ${
          data.quarantined
            ? 'It is refused from now on (401 credential_leaked).'
            : data.accepted
              ? 'It is still accepted, but anyone who read it can use it.'
              : 'It was no longer accepted.'
        } Rotate your key in the developer center, and remove the key from where it was found.`,
    ),
  },
  ExtensionRejected: {
    describe: () => 'rejected the extension',
    mail: mail(
      () => 'Your extension request was rejected',
      (event) => `your request for a later expiry was rejected. The reason: ${reasonOf(event)}.`,
    ),
  },
};

/** Where a leaked key was found, as the report says it: a URL, or its source alone when the URL is empty. */
function where(data: Record<string, unknown>): string {
  const url = typeof data.url === 'string' && data.url !== '' ? data.url : 'an undisclosed place';
  return typeof data.source === 'string' && data.source !== '' ? `${url} (${data.source})` : url;
}

function leakOutcome(data: Record<string, unknown>): string {
  if (data.quarantined) return 'the key is refused from now on, until the member rotates it';
  return data.accepted ? 'the key is still accepted (LEAKED_KEY_ACTION=notify)' : 'the key was no longer accepted';
}

/**
 * Which rotated-away keys a rotation left accepted. `earlier_keys` is an array from the rotations
 * that decided the older keys too (their digests already removed), null or absent before.
 */
function rotatedAway(data: Record<string, unknown>): string {
  const until = data.previous_key_valid_until;
  const earlier = Array.isArray(data.earlier_keys)
    ? data.earlier_keys.map((key) => String((key as { valid_until?: unknown }).valid_until))
    : null;
  if (typeof until !== 'string')
    return earlier ? 'the previous one and every earlier one stopped at once' : 'the previous one stopped at once';
  const previous = `the previous one stayed valid until ${until}`;
  if (!earlier || earlier.length === 0) return previous;
  return `${previous}, ${earlier.length === 1 ? 'an earlier one' : `${earlier.length} earlier ones`} until ${earlier.join(' and ')}`;
}
