import { accessSlice } from './access/slice';
import { ssoSlice } from './access/sso/slice';
import type { SsoSettings } from './access/sso/settings';
import { addonSlice } from './addon/slice';
import { auditSlice } from './audit/slice';
import { credentialSlice } from './credential/slice';
import { mailSlice } from './mail/slice';
import { memberSlice } from './member/slice';
import { webhookSlice } from './webhook/slice';
import type { AddonCatalogue, AddonDocument } from './addon';
import type { PasswordHasher } from './member';
import type { UsageLedger } from './credential';
import type { SignInFailures } from './access';
import type { SigningKey } from './audit/proof/signing-key';
import { useEventCodecs } from './shared/domain/events';
import { AppContext } from './shared/http/context';
import { Endpoint } from './shared/http/endpoints';
import { Projection } from './shared/projections/projection';
import { ReadModels } from './shared/projections/read-models';
import { Replica } from './shared/projections/replica';
import { MemberNaming, Registry, Slice } from './shared/slice';
import { DocumentStore, EventStore, RateLimiter, SessionStore } from './stores/ports';
import type { DeferredWork } from './shared/deferred-work';
import type { SendMail } from './shared/mail';
import type { WebhookSecrets } from './webhook';

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
  /** Signs the audit checkpoints and export heads. */
  auditKey: SigningKey;
  /** Whether a member exists: a decision about one who does not is a wrong id (the credential slice asks). */
  memberExists(id: number): Promise<boolean>;
  /** An administrator's username: the credential slice names who decided what a stale decision was about. */
  adminName(id: number): Promise<string | null>;
  /** Seals webhook secrets at rest, each under a data key that removing the webhook destroys. */
  webhookSecrets: WebhookSecrets;
  /** MAX_KEY_LIFETIME_DAYS: how far ahead an approval or extension may set a key's expiry. */
  maxKeyLifetimeDays: number;
  /** Ends every session of an identity when its password is reset or changed. */
  sessions: SessionStore;
  /** Sends through SMTP_URL; null when the service sends no mail. */
  sendMail: SendMail | null;
  /** PUBLIC_URL: where the console is reached, for the mailed links. */
  publicUrl: string;
  /** Refuses (429) a client address that asked for too many password-reset links lately. */
  admitResetRequest(ctx: AppContext): Promise<void>;
  /** Reset links mailed per member. */
  resetsOfMember: RateLimiter;
  /** Password-reset requests' lookups and mail, done a while after their answers. */
  resetWork: Pick<DeferredWork, 'defer'>;
  /** Wrong current passwords when changing one: per member, and per administrator (keys `admin-<id>`). */
  passwordChecks: RateLimiter;
  /** E-mail address changes asked per member. */
  emailChanges: RateLimiter;
  /** Failed administrator sign-ins, counted to be recorded one event a minute per username and address. */
  signInFailures: Pick<SignInFailures, 'count'>;
  /** OIDC_*: single sign-on for administrators; null when OIDC_ISSUER_URL is unset. */
  sso: SsoSettings | null;
}

/**
 * The slices the service is made of, each registering what it owns (src/shared/slice.ts). The
 * API (app.ts), the projector (project.ts) and the CLI all take their read models from here, the
 * API its endpoints, and both the notifiers (notifications.ts).
 */
export const SLICES = [
  memberSlice,
  credentialSlice,
  accessSlice,
  ssoSlice,
  auditSlice,
  addonSlice,
  webhookSlice,
  mailSlice,
] as const;

/**
 * Every event, permission, scope, webhook event type and event wording the slices registered. The
 * permissions are listed (an enum in the contract, checkboxes in the console) as they always were:
 * the application center's first, then the review, the audit, the webhooks, access last.
 */
export const REGISTRY = new Registry(SLICES as readonly Slice<never, never>[], {
  permissionOrder: ['addon', 'credential', 'audit', 'webhook', 'access'],
});

// Before anything is read or appended: the kernel decodes events with what the slices registered.
useEventCodecs(REGISTRY.events);

/** Every read model of every slice, in one registry. */
export const PROJECTIONS: Projection[] = SLICES.flatMap((slice) => slice.projections);

/** Every slice's endpoints, each checked to name only registered permissions and scopes. */
export function sliceEndpoints(deps: SliceDeps): Endpoint[] {
  const all: SliceDeps & SliceRegistryDeps = {
    ...deps,
    webhookEventTypes: REGISTRY.webhookEventTypes,
    eventTypes: [...REGISTRY.events.keys()],
    describe: (type, data) => REGISTRY.describe(type, data),
    memberStreams: (member) => REGISTRY.memberStreams(member),
    permissions: REGISTRY.permissions,
    permissionDescriptions: REGISTRY.permissionDescriptions,
    roleGroupScoped: REGISTRY.roleGroupScoped,
  };
  const endpoints = SLICES.flatMap((slice) => (slice as Slice<typeof all>).endpoints(all));
  for (const { method, path, caller } of endpoints) {
    const named = caller.kind === 'admin' ? caller.permission : caller.kind === 'partner' ? caller.scope : undefined;
    const known = caller.kind === 'admin' ? REGISTRY.permissions : REGISTRY.scopes;
    if (named !== undefined && !known.includes(named))
      throw new Error(`${method} ${path} names ${named}, which no slice registers`);
  }
  return endpoints;
}

/** What the slices' endpoints take from the registry. */
interface SliceRegistryDeps {
  webhookEventTypes: readonly string[];
  eventTypes: readonly string[];
  describe(type: string, data: Record<string, unknown>): string;
  memberStreams(member: MemberNaming): string[];
  /** Every permission, in the registry's order, and what each allows. */
  permissions: readonly string[];
  permissionDescriptions: ReadonlyMap<string, string>;
  /** The permissions held in one's own role group only. */
  roleGroupScoped: readonly string[];
}
