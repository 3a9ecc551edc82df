import { randomBytes } from 'node:crypto';
import { DocumentStore, EventStore, Stores } from '../stores/ports';
import { stamp } from '../shared/projections/stamp';
import { webhookStream } from './decider';
import { KEY_BYTES, seal, unseal } from '../shared/sealing';
import { ConfigurationError, Settings } from '../config';

/**
 * Each webhook's data key, wrapped by the key-encryption key: a document outside the event log,
 * which deleting the webhook deletes. Without it the sealed secret in the log opens no more.
 */
export const WEBHOOK_KEYS = { name: 'webhook_keys', indexes: [] };

interface WrappedKey {
  wrapped: string;
}

/** What a webhook's secret is stored as: in clear (events written before sealing), or sealed. */
export interface StoredSecret {
  secret?: string;
  sealed_secret?: string;
}

/**
 * Webhook secrets at rest (docs/notifications.md): sealed with AES-256-GCM under a data key of
 * the webhook's own, itself sealed under the key-encryption key kept outside the stores
 * (WEBHOOK_SECRET_KEY or the key file in the data directory).
 */
export class WebhookSecrets {
  constructor(
    private readonly documents: DocumentStore,
    private readonly keyEncryptionKey: Buffer,
  ) {}

  /**
   * Makes the keys' collection, and destroys the data keys of webhooks removed without it (a
   * process that stopped between recording a removal and destroying the key).
   */
  async start(events?: Pick<EventStore, 'readStream'>): Promise<void> {
    await this.documents.ensureCollections([WEBHOOK_KEYS]);
    if (!events) return;
    const removed = async (id: string) =>
      (await events.readStream(webhookStream(id))).at(-1)?.type === 'WebhookRemoved';
    for (const { id } of await this.documents.find(WEBHOOK_KEYS.name, {}))
      if (await removed(id)) await this.destroy(id);
  }

  /** Seals a new secret of this webhook, making its data key first if it has none. */
  async seal(webhookId: string, secret: string): Promise<string> {
    const key = (await this.dataKey(webhookId)) ?? (await this.newDataKey(webhookId));
    return seal(key, Buffer.from(secret), webhookId);
  }

  /** The secret in clear; null once the webhook's data key is destroyed. */
  async open(webhookId: string, stored: StoredSecret): Promise<string | null> {
    if (stored.sealed_secret === undefined) return stored.secret ?? null;
    const key = await this.dataKey(webhookId);
    return key && unseal(key, stored.sealed_secret, webhookId).toString();
  }

  /** Destroys the webhook's data key: what it sealed is unrecoverable from then on. */
  async destroy(webhookId: string): Promise<void> {
    await this.documents.write([{ collection: WEBHOOK_KEYS.name, id: webhookId, doc: null, position: stamp() }]);
  }

  private async dataKey(webhookId: string): Promise<Buffer | null> {
    const found = await this.documents.get<WrappedKey>(WEBHOOK_KEYS.name, webhookId);
    return found ? unseal(this.keyEncryptionKey, found.doc.wrapped, `data key of ${webhookId}`) : null;
  }

  private async newDataKey(webhookId: string): Promise<Buffer> {
    const key = randomBytes(KEY_BYTES);
    const doc: WrappedKey = { wrapped: seal(this.keyEncryptionKey, key, `data key of ${webhookId}`) };
    await this.documents.write([{ collection: WEBHOOK_KEYS.name, id: webhookId, doc: { ...doc }, position: stamp() }]);
    return key;
  }
}

/**
 * The key-encryption key: WEBHOOK_SECRET_KEY, else the stores' local key file (the production
 * stores have none): throws at start-up when there is neither. It seals the webhooks' data keys,
 * and a key derived from it the second factors' seeds.
 */
export function keyEncryptionKeyOf(
  settings: Pick<Settings, 'WEBHOOK_SECRET_KEY'>,
  stores: Pick<Stores, 'localKey'>,
): Buffer {
  const key = settings.WEBHOOK_SECRET_KEY
    ? Buffer.from(settings.WEBHOOK_SECRET_KEY, 'base64')
    : stores.localKey('webhook-secret');
  if (!key)
    throw new ConfigurationError(
      "set WEBHOOK_SECRET_KEY (32 random bytes in base64, the same for every instance): it seals the webhook secrets and the second factors' seeds",
    );
  return key;
}

/** The webhook secrets, sealed under the key-encryption key (`keyEncryptionKeyOf`). */
export function webhookSecretsOf(
  settings: Pick<Settings, 'WEBHOOK_SECRET_KEY'>,
  stores: Pick<Stores, 'documents' | 'localKey'>,
): WebhookSecrets {
  return new WebhookSecrets(stores.documents, keyEncryptionKeyOf(settings, stores));
}
