import type { Logger } from 'pino';
import { DocumentStore, EventStore } from '../stores/ports';
import { startAtHead } from './start-at-head';
import { Ticker } from '../shared/ticker';
import { memberMailFor, Mail } from './messages';

const CHECKPOINT = 'mail_notifier';
const MEMBERS = 'members';

/** Sends one mail; throws when the SMTP server did not take it. */
export type SendMail = (to: string, mail: Mail) => Promise<void>;

interface MemberDocument {
  username: string;
  nickname: string | null;
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
      const mail = member ? memberMailFor(event, member.doc, this.publicUrl) : null;
      if (mail && member?.doc.email) await this.send(member.doc.email, mail);
      await this.documents.write([], { projection: CHECKPOINT, position: event.position });
    }
  }
}
