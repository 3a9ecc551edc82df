import type { Logger } from 'pino';
import { AdminDocument, RoleGroupDocument } from '../access';
import { DocumentStore, EventStore } from '../stores/ports';
import { startAtHead } from './start-at-head';
import { Ticker } from '../shared/ticker';
import { DocumentWrite } from '../stores/ports';
import { MAIL_OUTBOX, mailWrite, queuedMail } from './outbox';
import {
  digestItemOf,
  digestMail,
  DigestState,
  dueFor,
  EMPTY_DIGEST,
  isArrival,
  pruned,
  reviewersOf,
  stillUndecided,
} from './reviewer-digest';

const CHECKPOINT = 'admin_digest';
const STATE = { collection: 'admin_digest', id: 'state' };
const MEMBERS = 'members';

/**
 * Mails the administrators who hold credential.review, and have an address, a digest of new
 * applications and scope requests: at most one per administrator per window. Follows the log with
 * its own checkpoint, never ahead of the members read model (for usernames), keeping what waits
 * and what was mailed to whom in its own document, written with each digest queued in the outbox:
 * the mail sender sends it, and a restart does not queue it again.
 */
export class DigestNotifier {
  private readonly ticker: Ticker;

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly options: { publicUrl: string; windowMs: number; now?: () => number },
    log: Logger,
    tickMs = 250,
  ) {
    this.ticker = new Ticker(
      () => this.turn(),
      tickMs,
      (err) => log.warn({ err }, 'could not queue the reviewers their digest; trying again shortly'),
    );
  }

  /** The first start begins at the head of the log: turning mail on does not list every past application. */
  async start(): Promise<void> {
    await this.documents.ensureCollections([{ name: STATE.collection, indexes: [] }, MAIL_OUTBOX]);
    await startAtHead(this.events, this.documents, CHECKPOINT);
    this.ticker.start();
  }

  stop(): Promise<void> {
    return this.ticker.stop();
  }

  private async turn(): Promise<void> {
    await this.collect();
    await this.mailDue();
  }

  private async state(): Promise<DigestState> {
    return (await this.documents.get<DigestState>(STATE.collection, STATE.id))?.doc ?? EMPTY_DIGEST;
  }

  private async save(
    state: DigestState,
    checkpoint?: { projection: string; position: string },
    queued: DocumentWrite[] = [],
  ): Promise<DigestState> {
    const next = { ...state, revision: state.revision + 1 };
    const position = String(next.revision).padStart(12, '0');
    await this.documents.write(
      [{ collection: STATE.collection, id: STATE.id, doc: { ...next }, position }, ...queued],
      checkpoint,
    );
    return next;
  }

  private async collect(): Promise<void> {
    const from = await this.documents.checkpoint(CHECKPOINT);
    const known = await this.documents.checkpoint(MEMBERS);
    const batch = (await this.events.readAll(from, 100)).filter((e) => e.position <= known);
    if (batch.length === 0) return;
    const state = await this.state();
    let items = [...state.items];
    for (const event of batch.filter((e) => e.position > state.collected_up_to)) {
      items = stillUndecided(items, event);
      if (!isArrival(event)) continue;
      const member = await this.documents.get<{ username: string }>(MEMBERS, String(event.data.member_id));
      items.push(digestItemOf(event, member?.doc.username ?? String(event.data.username ?? '')));
    }
    const last = batch[batch.length - 1]!.position;
    await this.save({ ...state, items, collected_up_to: last }, { projection: CHECKPOINT, position: last });
  }

  private async mailDue(): Promise<void> {
    let state = await this.state();
    if (state.items.length === 0) return;
    const admins = (await this.documents.find<AdminDocument>('admins', {})).map((d) => d.doc);
    const groups = new Map(
      (await this.documents.find<RoleGroupDocument>('role_groups', {})).map((d) => [d.doc.id, d.doc]),
    );
    const reviewers = reviewersOf(admins, groups);
    const now = (this.options.now ?? Date.now)();
    for (const reviewer of reviewers) {
      const due = dueFor(state, reviewer.id, now, this.options.windowMs);
      if (due.length === 0) continue;
      const upTo = due[due.length - 1]!.position;
      const digest = queuedMail(
        `digest:${reviewer.id}:${upTo}`,
        'digest',
        reviewer.email,
        digestMail(due, this.options.publicUrl),
        upTo,
        new Date(now),
      );
      const sent = { ...state.sent, [String(reviewer.id)]: { at: new Date(now).toISOString(), up_to: upTo } };
      state = await this.save({ ...state, sent }, undefined, [mailWrite(digest)]);
    }
    const kept = pruned(
      state,
      reviewers.map((r) => r.id),
    );
    if (kept.length < state.items.length) await this.save({ ...state, items: kept });
  }
}
