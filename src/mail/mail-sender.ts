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

/**
 * Sends the mails of the outbox that are due, one after the other, recording each outcome before
 * the next: a mail the SMTP server refuses for good (5xx) is dead at once with the server's words,
 * one it could not take now waits for its next attempt, and the others go on meanwhile.
 */
export class MailSender {
  private readonly ticker: Ticker;

  constructor(
    private readonly documents: DocumentStore,
    private readonly send: SendMail,
    private readonly log: Logger,
    private readonly options: MailSenderOptions,
  ) {
    this.ticker = new Ticker(() => this.sendDue(), options.tickMs ?? 250, (err) => log.warn({ err }, 'could not read the mail outbox; trying again shortly'));
  }

  async start(): Promise<void> {
    await this.documents.ensureCollections([MAIL_OUTBOX]);
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async sendDue(): Promise<void> {
    for (const mail of await dueEntries<OutboxMail>(this.documents, MAIL_OUTBOX.name, Date.now())) {
      const next = afterAttempt(mail, await this.attempt(mail), Date.now(), this.options.schedule);
      if (next.status === 'dead') this.log.warn({ mail_id: mail.id, cause: next.cause, attempts: next.attempts }, 'a mail is dead: no attempt left (administrators retry it: GET /mails?status=dead)');
      this.options.attempted?.(next.status);
      await this.documents.write([mailWrite(next)]);
    }
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
