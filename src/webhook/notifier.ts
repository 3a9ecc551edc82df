import type { Logger } from 'pino';
import { DocumentStore, EventStore, RecordedEvent } from '../stores/ports';
import { Ticker } from '../shared/ticker';
import { afterAttempt, DeliveryDocument, DELIVERIES } from './deliveries';
import { dueEntries, writePosition } from '../shared/outbox';
import { payloadOf, WebhookEventType } from './event-types';
import { sendDelivery } from './send';
import { webhooksProjection, WebhookDocument } from './projection';
import { WebhookSecrets } from './secrets';

const CHECKPOINT = 'webhook_notifier';
const BATCH = 200;

export interface NotifierOptions {
  /** Waits between retries, in milliseconds; after the last, a delivery is dead. */
  schedule: number[];
  /** WEBHOOK_ALLOW_PRIVATE: receivers on loopback and private addresses may be sent to. */
  allowPrivate: boolean;
  /** The webhook event type a logged event is told as, as its slice registered it; undefined when no webhook hears of it. */
  typeOf(eventType: string): WebhookEventType | undefined;
  /** Opens the sealed secrets that sign the deliveries. */
  secrets: WebhookSecrets;
  tickMs?: number;
  /** Told of each attempt's outcome (delivered, failed: tried again later, dead: no attempt left), for the operators' metrics. */
  attempted?: (outcome: DeliveryDocument['status']) => void;
}

/** An administrators' webhook hears of every member; a developer's only of events about themselves. */
const hearsOf = (hook: WebhookDocument, event: RecordedEvent): boolean =>
  hook.owner_member_id == null || hook.owner_member_id === Number(event.data.member_id);

/**
 * Follows the event log with its own checkpoint, like a projection, and turns each event a
 * webhook subscribed to into a delivery document, written together with the checkpoint; then
 * sends the deliveries that are due. Commands never send: the log is the outbox. Delivery is at
 * least once (a crash between a receiver's 2xx and recording it sends again, under the same
 * webhook-id); a delivery recorded as delivered is never sent again, across restarts.
 *
 * Each webhook has a lane of its own: its deliveries go one at a time, in the order of the log,
 * and a receiver that is slow or does not answer holds up only its own.
 */
export class WebhookNotifier {
  private readonly ticker: Ticker;
  /** The lanes sending now, by webhook id. */
  private readonly lanes = new Map<string, Promise<void>>();

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly log: Logger,
    private readonly options: NotifierOptions,
  ) {
    this.ticker = new Ticker(
      () => this.turn(),
      options.tickMs ?? 250,
      (err) => log.error({ err }, 'the webhook notifier failed a turn; it tries again on the next'),
    );
  }

  async start(): Promise<void> {
    await this.documents.ensureCollections([DELIVERIES, webhooksProjection.collection]);
    await this.options.secrets.start(this.events);
    this.ticker.start();
  }

  async stop(): Promise<void> {
    await this.ticker.stop();
    await Promise.all(this.lanes.values());
  }

  /** Record what the log added, batch by batch, then send what is due. */
  private async turn(): Promise<void> {
    while (await this.enqueue()) {
      // Caught up one batch; read the next.
    }
    await this.dispatch();
  }

  /** Records the deliveries of the next batch of events, never ahead of the webhooks read model. */
  private async enqueue(): Promise<boolean> {
    const from = await this.documents.checkpoint(CHECKPOINT);
    const known = await this.documents.checkpoint(webhooksProjection.name);
    const batch = (await this.events.readAll(from, BATCH)).filter((e) => e.position <= known);
    const last = batch[batch.length - 1];
    if (!last) return false;
    const told = batch.filter((e) => this.options.typeOf(e.type) !== undefined);
    const hooks =
      told.length === 0
        ? []
        : (await this.documents.find<WebhookDocument>(webhooksProjection.collection.name, {})).map((d) => d.doc);
    const deliveries: DeliveryDocument[] = [];
    for (const event of told) deliveries.push(...(await this.deliveriesOf(event, hooks)));
    const writes = deliveries.map((d) => ({
      collection: DELIVERIES.name,
      id: `${d.webhook_id}:${d.id}`,
      doc: { ...d },
      position: writePosition(d),
    }));
    await this.documents.write(writes, { projection: CHECKPOINT, position: last.position });
    return batch.length === BATCH;
  }

  private async deliveriesOf(event: RecordedEvent, hooks: WebhookDocument[]): Promise<DeliveryDocument[]> {
    const type = this.options.typeOf(event.type)!;
    const listening = hooks.filter(
      (h) => h.events.includes(type) && h.registered_at_position < event.position && hearsOf(h, event),
    );
    if (listening.length === 0) return [];
    const memberId = event.data.member_id;
    const credential = await this.documents.get<{ username: string }>('credentials', String(memberId));
    const payload = payloadOf(type, event, credential?.doc.username ?? null);
    return listening.map((hook) => ({
      id: event.id ?? event.position,
      webhook_id: hook.id,
      event_type: type,
      payload,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      next_attempt_at: event.metadata.time,
      delivered_at: null,
      event_position: event.position,
      revision: 0,
    }));
  }

  /**
   * Starts a lane for each webhook with deliveries due and none running: a running lane's
   * webhook gets its newly due deliveries at a turn after it finished.
   */
  private async dispatch(): Promise<void> {
    const due = (await dueEntries<DeliveryDocument>(this.documents, DELIVERIES.name, Date.now())).filter(
      (d) => !this.lanes.has(d.webhook_id),
    );
    if (due.length === 0) return;
    const hooks = new Map(
      (await this.documents.find<WebhookDocument>(webhooksProjection.collection.name, {})).map((d) => [d.id, d.doc]),
    );
    const byWebhook = new Map<string, DeliveryDocument[]>();
    for (const delivery of due) {
      const lane = byWebhook.get(delivery.webhook_id);
      if (lane) lane.push(delivery);
      else byWebhook.set(delivery.webhook_id, [delivery]);
    }
    for (const [webhookId, inLogOrder] of byWebhook) {
      const hook = hooks.get(webhookId);
      // A removed webhook's deliveries stay as they were, never sent.
      if (!hook) continue;
      const lane = this.sendInOrder(hook, inLogOrder)
        .catch((err: unknown) =>
          this.log.error(
            { err, webhook_id: webhookId },
            'a webhook lane failed; its deliveries are tried again on a later turn',
          ),
        )
        .finally(() => this.lanes.delete(webhookId));
      this.lanes.set(webhookId, lane);
    }
  }

  /** Sends one webhook's due deliveries one after the other, recording each answer before the next. */
  private async sendInOrder(hook: WebhookDocument, deliveries: DeliveryDocument[]): Promise<void> {
    for (const delivery of deliveries) {
      const exchange = await sendDelivery(hook, delivery, {
        allowPrivate: this.options.allowPrivate,
        secrets: this.options.secrets,
        log: this.log,
      });
      const next = afterAttempt(delivery, exchange, Date.now(), this.options.schedule);
      this.options.attempted?.(next.status);
      await this.documents.write([
        {
          collection: DELIVERIES.name,
          id: `${delivery.webhook_id}:${delivery.id}`,
          doc: { ...next },
          position: writePosition(next),
        },
      ]);
    }
  }
}
