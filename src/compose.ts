import type { Logger } from 'pino';
import { accessSlice } from './access';
import { addonSlice } from './addon';
import { auditSlice } from './audit';
import { credentialSlice } from './credential';
import { memberSlice } from './member';
import { webhookSlice } from './webhook';
import { AppContext } from './shared/http/context';
import { Endpoint } from './shared/http/endpoints';
import { Projection } from './shared/projections/projection';
import { parseStoreConfig } from './stores/config';
import { openStores } from './stores';
import { DocumentStore, EventStore, Stores } from './stores/ports';
import { AddonCatalogue } from './addon/manifest';
import { AddonDocument } from './addon/projection';
import { PasswordHasher } from './member/passwords';
import { ReadModels } from './shared/projections/read-models';
import { Replica } from './shared/projections/replica';
import { Slice } from './shared/slice';
import type { UsageLedger } from './credential/usage/ledger';
import type { WebhookSecrets } from './webhook/secrets';

/** What the slices' endpoints need, each built once by the API's composition root (app.ts). */
export interface SliceDeps {
  events: EventStore;
  hasher: PasswordHasher;
  /** Refuses (429) a client address that registered too many members lately. */
  admitRegistration(ctx: AppContext): Promise<void>;
  readModels: ReadModels;
  catalogue: AddonCatalogue;
  installedAddons: Pick<Replica<AddonDocument>, 'lookup' | 'revision'>;
  /** KEY_LIFETIME_DAYS, or null when keys never expire unless their approval says so. */
  keyLifetimeDays: number | null;
  /** Open-API calls per credential, counted in memory and flushed by the API process. */
  usage: Pick<UsageLedger, 'usage' | 'lastUsed'>;
  /** Read by the webhook deliveries, which are the notifier's documents rather than a read model. */
  documents: DocumentStore;
  webhookAllowPrivate: boolean;
  /** Seals webhook secrets at rest, each under a data key that removing the webhook destroys. */
  webhookSecrets: WebhookSecrets;
  /** MAX_KEY_LIFETIME_DAYS: how far ahead an approval or extension may set a key's expiry. */
  maxKeyLifetimeDays: number;
}

/**
 * The slices the service is made of. The API (app.ts), the projector (project.ts) and the CLI
 * all take their read models from here, and the API its endpoints.
 */
const SLICES: Slice<SliceDeps>[] = [memberSlice, credentialSlice, accessSlice, auditSlice, addonSlice, webhookSlice];

/** Every read model of every slice, in one registry. */
export const PROJECTIONS: Projection[] = SLICES.flatMap((slice) => slice.projections);

/** Every slice's endpoints. */
export function sliceEndpoints(deps: SliceDeps): Endpoint[] {
  return SLICES.flatMap((slice) => slice.endpoints(deps));
}

/** The stores the environment names, for the API, the projector and the CLI alike. */
export function openConfiguredStores(env: NodeJS.ProcessEnv, log: Logger): Promise<Stores> {
  return openStores(parseStoreConfig(env), log);
}
