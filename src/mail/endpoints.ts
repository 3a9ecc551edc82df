import { z } from 'zod';
import { DocumentStore } from '../stores/ports';
import { OUTBOX_STATUSES, retried } from '../shared/outbox';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { pageOf, paginate, wholeListQuery } from '../shared/http/pagination';
import { emptyBody } from '../shared/http/validate';
import { MAIL_OUTBOX, mailWrite, OutboxMail, outboxMailSchema, outboxMailView } from './outbox';

export interface MailDeps {
  documents: DocumentStore;
}

/**
 * Who reads and retries the outbox's mails: the reviewers, whose decisions the member mails tell
 * and who get the digests; their text and addresses are what a reviewer already reads in the
 * review lists (docs/notifications.md, Dead messages).
 */
const reviewers = { kind: 'admin', permission: 'credential.review' } as const;

const statusQuery = z.object({
  status: z.enum(OUTBOX_STATUSES, { error: `status must be one of ${OUTBOX_STATUSES.join(', ')}` }).default('dead'),
});
const mailParams = z.object({ id: z.string().regex(/^(member|digest):[0-9A-Za-z:_-]{1,200}$/, 'id is not a mail id') });

/** The mail outbox as administrators see it: the mails in a status (dead by default), and a retry of one. */
export function mailEndpoints(deps: MailDeps): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/mails',
      caller: reviewers,
      summary:
        'The mails of the outbox in one status (dead unless named), newest first, with why their last attempt failed',
      query: statusQuery.extend(wholeListQuery),
      response: pageOf(outboxMailSchema),
      handler: async (_ctx, { query }) => {
        const found = (await deps.documents.find<OutboxMail>(MAIL_OUTBOX.name, { status: query.status })).map(
          (d) => d.doc,
        );
        const page = paginate(found, (mail) => [0, `${mail.event_position}~${mail.id}`], query, { newestFirst: true });
        return { data: { list: page.list.map(outboxMailView), next: page.next } };
      },
    }),
    endpoint({
      method: 'POST',
      path: '/mails/:id/retry',
      caller: reviewers,
      summary: 'Send a mail again now: one more attempt (a dead mail refused again is dead again, with the new cause)',
      params: mailParams,
      body: emptyBody,
      response: outboxMailSchema,
      refusals: [
        { status: 404, reasons: ['mail_not_found'], when: 'there is no such mail in the outbox (mail_not_found)' },
      ],
      handler: async (_ctx, { params: { id } }) => {
        const found = await deps.documents.get<OutboxMail>(MAIL_OUTBOX.name, id);
        if (!found) throw new HttpError(404, 'mail_not_found', `there is no mail ${id} in the outbox`);
        const next = retried(found.doc, Date.now());
        await deps.documents.write([mailWrite(next)]);
        return { data: outboxMailView(next), message: 'queued: it is sent within a second' };
      },
    }),
  ];
}
