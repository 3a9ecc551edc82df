import type { Logger } from 'pino';
import { DocumentStore, EventStore } from '../stores/ports';
import { startAtHead } from './start-at-head';
import { Ticker } from '../shared/ticker';
import { Mail, MemberMail, SendMail } from '../shared/mail';

const CHECKPOINT = 'mail_notifier';
const MEMBERS = 'members';

interface Recipient {
  username: string;
  nickname: string | null;
}

interface MemberDocument extends Recipient {
  email: string | null;
}

/**
 * Mails members about the decisions on their credential and scopes. Follows the event log with
 * its own checkpoint, never ahead of the members read model (where the address is), and moves the
 * checkpoint past an event once its mail was taken: at least once, and never again after that.
 */
export class MailNotifier {
  private readonly ticker: Ticker;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly send: SendMail,
    /** The mail each event type makes, as its slice registered it (src/compose.ts). */
    private readonly mailOf: (type: string) => MemberMail | undefined,
    private readonly publicUrl: string,
    log: Logger,
    tickMs = 250,
  ) {
    this.ticker = new Ticker(() => this.follow(), tickMs, (err) => log.warn({ err }, 'could not send a notification mail; trying again shortly'));
  }

  /** The first start begins at the head of the log: turning mail on does not mail about every past decision. */
  async start(): Promise<void> {
    await startAtHead(this.events, this.documents, CHECKPOINT);
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async follow(): Promise<void> {
    const from = await this.documents.checkpoint(CHECKPOINT);
    const known = await this.documents.checkpoint(MEMBERS);
    const batch = (await this.events.readAll(from, 100)).filter((e) => e.position <= known);
    for (const event of batch) {
      const memberId = event.data.member_id;
      const member = typeof memberId === 'number' ? await this.documents.get<MemberDocument>(MEMBERS, String(memberId)) : null;
      const template = this.mailOf(event.type);
      const mail = member && template ? memberMail(template(event), member.doc, this.publicUrl) : null;
      if (mail && member?.doc.email) await this.send(member.doc.email, mail);
      await this.documents.write([], { projection: CHECKPOINT, position: event.position });
    }
  }
}

/** A slice's mail, greeting the member and signed with the developer center's address. */
export function memberMail(mail: Mail, to: Recipient, publicUrl: string): Mail {
  const dashboard = `${publicUrl.replace(/\/$/, '')}/ui/`;
  return { subject: mail.subject, text: `Hello ${to.nickname ?? to.username},\n\n${mail.text}\n\nYour developer center: ${dashboard}\n` };
}
