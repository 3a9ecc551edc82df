import type { Logger } from 'pino';
import { DocumentStore, EventStore } from '../stores/ports';
import { startAtHead } from './start-at-head';
import { Ticker } from '../shared/ticker';
import { Mail, MemberMail } from '../shared/mail';
import { MAIL_OUTBOX, mailWrite, queuedMail } from './outbox';

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
 * its own checkpoint, never ahead of the members read model (where the address is), and queues
 * each event's mail in the outbox in the same write that moves the checkpoint past the event: the
 * mail sender sends it, at least once, and a mail that cannot be sent holds back no other.
 */
export class MailNotifier {
  private readonly ticker: Ticker;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    /** The mail each event type makes, as its slice registered it (src/compose.ts). */
    private readonly mailOf: (type: string) => MemberMail | undefined,
    private readonly publicUrl: string,
    log: Logger,
    tickMs = 250,
  ) {
    this.ticker = new Ticker(
      () => this.follow(),
      tickMs,
      (err) => log.warn({ err }, 'could not queue the mail of an event; trying again shortly'),
    );
  }

  /** The first start begins at the head of the log: turning mail on does not mail about every past decision. */
  async start(): Promise<void> {
    await this.documents.ensureCollections([MAIL_OUTBOX]);
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
    const last = batch[batch.length - 1];
    if (!last) return;
    const queued = [];
    for (const event of batch) {
      const memberId = event.data.member_id;
      const template = this.mailOf(event.type);
      const member =
        template && typeof memberId === 'number'
          ? await this.documents.get<MemberDocument>(MEMBERS, String(memberId))
          : null;
      if (!template || !member?.doc.email) continue;
      const mail = memberMail(template(event), member.doc, this.publicUrl);
      queued.push(
        mailWrite(queuedMail(`member:${event.position}`, 'member', member.doc.email, mail, event.position, new Date())),
      );
    }
    await this.documents.write(queued, { projection: CHECKPOINT, position: last.position });
  }
}

/** A slice's mail, greeting the member and signed with the developer center's address. */
export function memberMail(mail: Mail, to: Recipient, publicUrl: string): Mail {
  const dashboard = `${publicUrl.replace(/\/$/, '')}/ui/developer`;
  return {
    subject: mail.subject,
    text: `Hello ${to.nickname ?? to.username},\n\n${mail.text}\n\nYour developer center: ${dashboard}\n`,
  };
}
