import type { Logger } from 'pino';
import { DocumentStore } from '../stores/ports';
import { afterAttempt, Attempt, dueEntries, OutboxStatus } from '../shared/outbox';
import { SendMail } from '../shared/mail';
import { Ticker } from '../shared/ticker';
import { MAIL_OUTBOX, mailWrite, OutboxMail } from './outbox';
import { attemptOf } from './transport';

export interface MailSenderOptions {
  /** MAIL_RETRY_SCHEDULE: waits between attempts, in milliseconds; after the last, a mail is dead. */
  schedule: number[];
  /** Told of each attempt's outcome, for the operators' metrics. */
  attempted?: (outcome: OutboxStatus) => void;
  tickMs?: number;
}

// Mails sent at once, each on a connection of its own: SMTP servers take a few per client.
const IN_FLIGHT = 4;

/**
 * Sends the mails of the outbox that are due, a few at a time, recording each outcome: a mail the
 * SMTP server refuses for good (5xx) is dead at once with the server's words, one it could not
 * take now waits for its next attempt. A send that hangs holds only its own place: the next turn
 * starts the next due mails beside it.
 */
export class MailSender {
  private readonly ticker: Ticker;
  /** The sends under way, by mail id. */
  private readonly sending = new Map<string, Promise<void>>();

  constructor(
    private readonly documents: DocumentStore,
    private readonly send: SendMail,
    private readonly log: Logger,
    private readonly options: MailSenderOptions,
  ) {
    this.ticker = new Ticker(
      () => this.startDue(),
      options.tickMs ?? 250,
      (err) => log.warn({ err }, 'could not read the mail outbox; trying again shortly'),
    );
  }

  async start(): Promise<void> {
    await this.documents.ensureCollections([MAIL_OUTBOX]);
    this.ticker.start();
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
    await Promise.all(this.sending.values());
  }

  private async startDue(): Promise<void> {
    const due = (await dueEntries<OutboxMail>(this.documents, MAIL_OUTBOX.name, Date.now())).filter(
      (m) => !this.sending.has(m.id),
    );
    for (const mail of due.slice(0, IN_FLIGHT - this.sending.size)) {
      const sent = this.sendOne(mail)
        .catch((err: unknown) =>
          this.log.warn(
            { err, mail_id: mail.id },
            'could not record a mail attempt; it is tried again on a later turn',
          ),
        )
        .finally(() => this.sending.delete(mail.id));
      this.sending.set(mail.id, sent);
    }
  }

  private async sendOne(mail: OutboxMail): Promise<void> {
    const next = afterAttempt(mail, await this.attempt(mail), Date.now(), this.options.schedule);
    if (next.status === 'dead')
      this.log.warn(
        { mail_id: mail.id, cause: next.cause, attempts: next.attempts },
        'a mail is dead: no attempt left (administrators retry it: GET /mails?status=dead)',
      );
    this.options.attempted?.(next.status);
    await this.documents.write([mailWrite(next)]);
  }

  private async attempt(mail: OutboxMail): Promise<Attempt> {
    try {
      await this.send(mail.to, mail.mail);
      return { delivered: true };
    } catch (err) {
      return attemptOf(err);
    }
  }
}
