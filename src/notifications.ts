import type { Logger } from 'pino';
import { Settings } from './config';
import { REGISTRY, SLICES } from './compose';
import { Mailer, smtpSender } from './mail';
import { Stores } from './stores/ports';
import type { OutboxStatus } from './shared/outbox';

/** Where what is sent is counted, for the operators' metrics. */
export interface NotificationMeters {
  webhookAttempted(outcome: OutboxStatus): void;
  /** An outbox mail's attempt: delivered, failed (tried again later) or dead. */
  mailAttempted(outcome: OutboxStatus): void;
  mailed(outcome: 'sent' | 'failed'): void;
}

const uncounted: NotificationMeters = { webhookAttempted: () => {}, mailAttempted: () => {}, mailed: () => {} };

/**
 * The SMTP mailer of SMTP_URL, each mail it sends counted as sent or failed; null without mail.
 * Every process's mail goes through one of these, the notifiers' and the links the API mails itself.
 */
export function countedMailer(
  settings: Pick<Settings, 'SMTP_URL' | 'MAIL_FROM'>,
  mailed: NotificationMeters['mailed'] = uncounted.mailed,
): Mailer | null {
  return settings.SMTP_URL ? counted(smtpSender(settings.SMTP_URL, settings.MAIL_FROM), mailed) : null;
}

const counted = (mailer: Mailer, mailed: NotificationMeters['mailed']): Mailer => ({
  ...mailer,
  async send(to, mail) {
    try {
      await mailer.send(to, mail);
    } catch (err) {
      mailed('failed');
      throw err;
    }
    mailed('sent');
  },
});

/**
 * What tells the world, started where the read models are kept: the API process with
 * PROJECTIONS=inline, or the `platform project` process. Every slice's notifiers and watches, each
 * following the log on its own checkpoint; none sends from a command. Answers how to stop them.
 */
export async function startNotifications(
  settings: Settings,
  stores: Stores,
  log: Logger,
  meters = uncounted,
): Promise<() => Promise<void>> {
  const mailer = countedMailer(settings, meters.mailed);
  const deps = {
    settings,
    stores,
    log,
    registry: REGISTRY,
    mailer,
    webhookAttempted: meters.webhookAttempted,
    mailAttempted: meters.mailAttempted,
  };
  const notifiers = SLICES.flatMap((slice) => slice.notifiers?.(deps) ?? []);
  for (const notifier of notifiers) await notifier.start();
  return async () => {
    for (const notifier of notifiers) await notifier.stop();
    mailer?.close();
  };
}
