import type { RecordedEvent } from '../stores/ports';

/** The notification port: a mail as the service writes it, whatever slice it comes from. */
export interface Mail {
  subject: string;
  text: string;
}

/** Sends one mail; throws when the SMTP server did not take it. */
export type SendMail = (to: string, mail: Mail) => Promise<void>;

/**
 * The mail an event makes for the member it is about: its subject, and its text between the
 * greeting and the signature, which the mail slice adds.
 */
export type MemberMail = (event: Pick<RecordedEvent, 'data' | 'metadata'>) => Mail;
