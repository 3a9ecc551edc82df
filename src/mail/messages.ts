import { RecordedEvent } from '../stores/ports';

export interface Mail {
  subject: string;
  text: string;
}

interface Recipient {
  username: string;
  nickname: string | null;
}

const reasonOf = (event: Pick<RecordedEvent, 'data' | 'metadata'>): string =>
  String(event.data.reason ?? event.metadata.reason ?? 'no reason was given');

/**
 * The mail a member gets about a decision on their credential or a scope, or null when the event
 * is not one they are mailed about. Pure: the notifier sends it.
 */
export function memberMailFor(event: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>, to: Recipient, publicUrl: string): Mail | null {
  const dashboard = `${publicUrl.replace(/\/$/, '')}/ui/`;
  const hello = `Hello ${to.nickname ?? to.username},\n\n`;
  const bye = `\n\nYour developer center: ${dashboard}\n`;
  const scope = String(event.data.scope ?? '');
  const expiry = event.data.expires_at ? ` The key will expire at ${String(event.data.expires_at)}.` : '';
  switch (event.type) {
    case 'CredentialApproved':
      return { subject: 'Your API credential application was approved', text: `${hello}your application was approved: claim your API key in the developer center.${expiry}${bye}` };
    case 'CredentialRejected':
      return { subject: 'Your API credential application was rejected', text: `${hello}your application was rejected. The reason: ${reasonOf(event)}.\nYou can apply again.${bye}` };
    case 'CredentialRevoked':
      return { subject: 'Your API credential was revoked', text: `${hello}your API credential was revoked and is refused from now on. The reason: ${reasonOf(event)}.${bye}` };
    case 'ScopeApproved':
      return { subject: `The scope ${scope} was approved`, text: `${hello}the scope ${scope} was approved for your API credential.${bye}` };
    case 'ScopeRejected':
      return { subject: `The scope ${scope} was rejected`, text: `${hello}the scope ${scope} was rejected. The reason: ${reasonOf(event)}.${bye}` };
    case 'ScopeRevoked':
      return { subject: `The scope ${scope} was revoked`, text: `${hello}the scope ${scope} was revoked. The reason: ${reasonOf(event)}.${bye}` };
    case 'ExtensionApproved':
      return { subject: 'Your key expiry was extended', text: `${hello}your request was approved: your API key now expires at ${String(event.data.expires_at)}.${bye}` };
    case 'ExtensionRejected':
      return { subject: 'Your extension request was rejected', text: `${hello}your request for a later expiry was rejected. The reason: ${reasonOf(event)}.${bye}` };
    case 'CredentialExpiring':
      return {
        subject: `Your API key expires in ${String(event.data.days_before)} day(s)`,
        text: `${hello}your API key expires at ${String(event.data.expires_at)}. Ask for an extension, or apply again, before then: calls made with it afterwards are refused with 401 credential_expired.${bye}`,
      };
    case 'CredentialExpired':
      return {
        subject: 'Your API key expired',
        text: `${hello}your API key expired at ${String(event.data.expires_at)}: calls made with it are refused with 401 credential_expired. Apply again in the developer center.${bye}`,
      };
    default:
      return null;
  }
}
