import type { Logger } from 'pino';
import { Settings } from './config';
import { REGISTRY, SLICES } from './compose';
import { smtpSender } from './mail';
import { Stores } from './stores/ports';

/**
 * What tells the world, started where the read models are kept: the API process with
 * PROJECTIONS=inline, or the `platform project` process. Every slice's notifiers and watches, each
 * following the log on its own checkpoint; none sends from a command. Answers how to stop them.
 */
export async function startNotifications(settings: Settings, stores: Stores, log: Logger): Promise<() => Promise<void>> {
  const mailer = settings.SMTP_URL ? smtpSender(settings.SMTP_URL, settings.MAIL_FROM) : null;
  const notifiers = SLICES.flatMap((slice) => slice.notifiers?.({ settings, stores, log, registry: REGISTRY, mailer }) ?? []);
  for (const notifier of notifiers) await notifier.start();
  return async () => {
    for (const notifier of notifiers) await notifier.stop();
    mailer?.close();
  };
}
