import type { Logger } from 'pino';
import type { Settings } from '../config';
import type { Stores } from '../stores/ports';
import { Registry, Slice } from '../shared/slice';
import { DigestNotifier } from './digest-notifier';
import { MailNotifier } from './mail-notifier';
import { Mailer } from './transport';

interface NotifierDeps {
  settings: Pick<Settings, 'PUBLIC_URL' | 'ADMIN_DIGEST_MINUTES'>;
  stores: Stores;
  log: Logger;
  registry: Pick<Registry, 'mailOf'>;
  /** Null without SMTP_URL: then nobody is mailed. */
  mailer: Mailer | null;
}

/**
 * Mail: members are mailed about the decisions on their credential (the mail each event makes is
 * its slice's, registered with the event), reviewers a digest of what waits for them.
 */
export const mailSlice: Slice<unknown, NotifierDeps> = {
  name: 'mail',
  events: {},
  projections: [],
  endpoints: () => [],
  notifiers: ({ settings, stores: { events, documents }, log, registry, mailer }) =>
    mailer
      ? [
          new MailNotifier(events, documents, mailer.send, (type) => registry.mailOf(type), settings.PUBLIC_URL, log.child({ component: 'mail' })),
          new DigestNotifier(events, documents, mailer.send, { publicUrl: settings.PUBLIC_URL, windowMs: settings.ADMIN_DIGEST_MINUTES * 60_000 }, log.child({ component: 'digest' })),
        ]
      : [],
};
