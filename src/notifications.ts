import type { Logger } from 'pino';
import { Settings } from './config';
import { ExpiryWatch } from './credential/expiry-watch';
import { DigestNotifier } from './mail/digest-notifier';
import { MailNotifier } from './mail/mail-notifier';
import { smtpSender } from './mail/transport';
import { Stores } from './stores/ports';
import { WebhookNotifier } from './webhook/notifier';
import { startWebhookSecrets } from './webhook/secrets';

/**
 * What tells the world, started where the read models are kept: the API process with
 * PROJECTIONS=inline, or the `platform project` process. Each follows the log on its own
 * checkpoint; none sends from a command. Answers how to stop them.
 */
export async function startNotifications(settings: Settings, stores: Stores, log: Logger): Promise<() => Promise<void>> {
  const { events, documents } = stores;
  const webhooks = new WebhookNotifier(events, documents, log.child({ component: 'webhooks' }), {
    schedule: settings.WEBHOOK_RETRY_SCHEDULE,
    allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE,
    secrets: await startWebhookSecrets(settings, stores),
  });
  await webhooks.start();
  const mailer = settings.SMTP_URL ? smtpSender(settings.SMTP_URL, settings.MAIL_FROM) : null;
  const mail = mailer ? new MailNotifier(events, documents, mailer.send, settings.PUBLIC_URL, log.child({ component: 'mail' })) : null;
  await mail?.start();
  const digest = mailer
    ? new DigestNotifier(events, documents, mailer.send, { publicUrl: settings.PUBLIC_URL, windowMs: settings.ADMIN_DIGEST_MINUTES * 60_000 }, log.child({ component: 'digest' }))
    : null;
  await digest?.start();
  const expiry = new ExpiryWatch(events, documents, settings.EXPIRY_REMINDER_DAYS, log.child({ component: 'expiry' }));
  expiry.start();
  return async () => {
    await expiry.stop();
    await webhooks.stop();
    await mail?.stop();
    await digest?.stop();
    mailer?.close();
  };
}
