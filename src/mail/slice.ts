import type { Logger } from 'pino';
import type { Settings } from '../config';
import type { Stores } from '../stores/ports';
import { Registry, Slice } from '../shared/slice';
import { DigestNotifier } from './digest-notifier';
import { mailEndpoints, MailDeps } from './endpoints';
import { MailNotifier } from './mail-notifier';
import { MailSender, MailSenderOptions } from './mail-sender';
import { Mailer } from './transport';

interface NotifierDeps {
  settings: Pick<Settings, 'PUBLIC_URL' | 'ADMIN_DIGEST_MINUTES' | 'MAIL_RETRY_SCHEDULE'>;
  stores: Stores;
  log: Logger;
  registry: Pick<Registry, 'mailOf'>;
  /** Null without SMTP_URL: then nobody is mailed. */
  mailer: Mailer | null;
  /** Told of each mail attempt's outcome, for the operators' metrics. */
  mailAttempted?: MailSenderOptions['attempted'];
}

/**
 * Mail: members are mailed about the decisions on their credential (the mail each event makes is
 * its slice's, registered with the event), reviewers a digest of what waits for them. Both are
 * queued in the outbox, which the sender empties mail by mail; administrators list and retry
 * the dead ones.
 */
export const mailSlice: Slice<MailDeps, NotifierDeps> = {
  name: 'mail',
  events: {},
  projections: [],
  endpoints: (deps) => mailEndpoints(deps),
  notifiers: ({ settings, stores: { events, documents }, log, registry, mailer, mailAttempted }) =>
    mailer
      ? [
          new MailNotifier(
            events,
            documents,
            (type) => registry.mailOf(type),
            settings.PUBLIC_URL,
            log.child({ component: 'mail' }),
          ),
          new DigestNotifier(
            events,
            documents,
            { publicUrl: settings.PUBLIC_URL, windowMs: settings.ADMIN_DIGEST_MINUTES * 60_000 },
            log.child({ component: 'digest' }),
          ),
          new MailSender(documents, mailer.send, log.child({ component: 'mail-sender' }), {
            schedule: settings.MAIL_RETRY_SCHEDULE,
            attempted: mailAttempted,
          }),
        ]
      : [],
};
