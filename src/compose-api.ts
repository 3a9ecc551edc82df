import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import {
  argon2Hasher,
  boundPasswordWork,
  emailChangePolicy,
  limitLoginFailures,
  pendingUsername,
  loginAddressPolicy,
  loginPolicy,
  memberReads,
  passwordChangePolicy,
  resetPolicies,
  seedSealer,
} from './member';
import {
  accessReads,
  requireAdmin,
  seedGroups,
  seedSuperAdministrator,
  SIGN_IN_FAILED_COUNT,
  SignInFailures,
} from './access';
import { addonsProjection } from './addon';
import { apiKeysProjection, leakReporting, partnerGate, requireScope, UNSIGNED_POSTS, UsageLedger } from './credential';
import { keyEncryptionKeyOf, webhookSecretsOf } from './webhook';
import { approvalRuleFor } from './approval-rule';
import { SsoSettings, ssoSettingsOf } from './access/sso/settings';
import { relyingPartyOf } from './access/passkeys/ceremony';
import { hasPasskey } from './access/passkeys/passkeys';
import { keyFilesOf, openKeyRing } from './audit/proof/key-ring';
import { REGISTERED, REGISTRY, sliceEndpoints } from './compose';
import { ConfigurationError, Settings } from './config';
import { countedMailer, NotificationMeters } from './notifications';
import { DeferredWork, spreadDelay } from './shared/deferred-work';
import { perAddress, registrationPolicy } from './shared/http/address-limits';
import { addressKeyOf } from './shared/http/client-address';
import { AppState } from './shared/http/context';
import { Endpoint, LoginRealm, LoginStep } from './shared/http/endpoints';
import {
  credentialFailures,
  credentialFailuresPolicy,
  openApiPolicy,
  openApiQuota,
} from './shared/http/open-api-limit';
import { PartnerGate } from './shared/http/partner-lane';
import { PositionTracker, ReadModels } from './shared/projections/read-models';
import { Projection } from './shared/projections/projection';
import { Replica, ReplicaStatus } from './shared/projections/replica';
import { loadAddonCatalogue } from './stores/addon-catalogue';
import { LimitPolicy, Stores } from './stores/ports';

// Reset requests waiting for their lookup and mail: each address may ask 10 an hour, so many waiting is a flood from many.
const RESET_REQUESTS_WAITING = 1000;

/** What the kernel (app.ts) gives the composition of the API's slices. */
export interface ApiKernel {
  settings: Settings;
  log: Logger;
  stores: Stores;
  /** Where the projections the read models wait on stand (this process's runner, or the projector's checkpoints). */
  tracker: PositionTracker;
  /** Counts the mail the API sends itself (reset and confirmation links, invitations). */
  mailed?: NotificationMeters['mailed'];
}

/** The slices of the API process, composed: their endpoints and the guards they own. */
export interface ApiComposition {
  /** Every slice's endpoints, in the order of SLICES. */
  endpoints: Endpoint[];
  /** The credential slice's gate on the open API, which the partner lane asks first. */
  gate: PartnerGate;
  guards: {
    admin(permission?: string): Middleware<AppState>;
    partner(scope: string): Middleware<AppState>;
    login(realm: LoginRealm, step: LoginStep): Middleware<AppState>;
  };
  /** The in-memory key ring the gate reads, for the health endpoint and the metrics. */
  keyRing: { status(): ReplicaStatus; stalenessMs(): number; maxStalenessMs: number };
  passwordChecksInFlight(): number;
  close(): Promise<void>;
}

/**
 * The API process's slices: what each slice's endpoints take (SliceDependencies in compose.ts),
 * built once, then their endpoints. Before anything is served the audit key ring is checked: a
 * key that did not sign the log's checkpoints refuses the start.
 */
export async function composeApi({ settings, log, stores, tracker, mailed }: ApiKernel): Promise<ApiComposition> {
  const { events, documents } = stores;
  const limiter = (policy: LimitPolicy) => stores.rateLimits.limiter(policy);
  // A limit whose answers tell where the caller stands: its counter with its policy.
  const counted = async (policy: LimitPolicy) => ({ limiter: await limiter(policy), policy });
  const hasher = boundPasswordWork(argon2Hasher(), settings.PASSWORD_CHECKS_IN_FLIGHT);
  const staleness = settings.KEY_RING_MAX_STALENESS_MS;
  // In memory: the partner lane looks keys and add-ons up on every call, with no store round trip.
  const replica = <Doc extends object>(projection: Projection<Doc>, key: keyof Doc & string, component: string) =>
    new Replica(events, documents, projection, key, log.child({ component }), staleness);
  const keyRing = replica(apiKeysProjection, 'apiid', 'key-ring');
  await keyRing.start();
  const catalogue = await loadAddonCatalogue(settings.ADDONS_DIR, log.child({ component: 'addons' }));
  const installedAddons = replica(addonsProjection, 'key', 'installed-addons');
  await installedAddons.start();
  const readModels = new ReadModels(events, documents, tracker, keyRing, settings.READ_WAIT_MS);
  const usage = new UsageLedger(documents, log.child({ component: 'key-usage' }), undefined, settings.RECENT_CALLS);
  await usage.start();
  const signInFailures = new SignInFailures(
    events,
    log.child({ component: 'sign-in-failures' }),
    await stores.rateLimits.limiter(SIGN_IN_FAILED_COUNT),
  );
  signInFailures.start();
  const openApiLimit = openApiPolicy(settings);
  const addressKey = addressKeyOf(settings);
  const failureLimit = credentialFailuresPolicy(settings);
  const gate = partnerGate(
    keyRing,
    openApiQuota(await limiter(openApiLimit), openApiLimit),
    credentialFailures(await limiter(failureLimit), failureLimit, addressKey),
    usage,
  );
  const sso = ssoSettingsOrRefuse(settings);
  // The password and the second factor after it count against the same limiters.
  const loginLimit = async (realm: LoginRealm): Promise<Record<LoginStep, Middleware<AppState>>> => {
    const limiters = {
      account: await limiter(loginPolicy(settings, realm)),
      address: await limiter(loginAddressPolicy(settings, realm)),
      policies: { account: loginPolicy(settings, realm), address: loginAddressPolicy(settings, realm) },
    };
    return {
      password: limitLoginFailures(limiters, addressKey),
      'second-factor': limitLoginFailures(limiters, addressKey, pendingUsername(realm)),
    };
  };
  const loginLimits = { member: await loginLimit('member'), admin: await loginLimit('admin') };
  const resets = resetPolicies(settings);
  const resetWork = new DeferredWork(spreadDelay, RESET_REQUESTS_WAITING, () =>
    log.warn('a password-reset request was dropped: too many wait to be mailed'),
  );
  // The API's own mail (reset and confirmation links, invitations), sent as the request is decided.
  const mailer = countedMailer(settings, mailed);
  const webhookSecrets = webhookSecretsOf(settings, stores);
  const secondFactor = {
    sealer: seedSealer(keyEncryptionKeyOf(settings, stores)),
    issuer: settings.TOTP_ISSUER,
    policy: settings.REQUIRE_SECOND_FACTOR,
    passkey: async (side: 'member' | 'admin', id: number) => hasPasskey(events, { side, id }),
  };
  await webhookSecrets.start(events);
  const auditKeys = await openKeyRing(keyFilesOf(settings), events);

  const mail = { sendMail: mailer?.send ?? null, publicUrl: settings.PUBLIC_URL };
  const passwordChecks = await counted(passwordChangePolicy(settings));
  const endpoints = sliceEndpoints({
    member: {
      events,
      readModels,
      hasher,
      sessions: stores.sessions,
      ...mail,
      admitRegistration: perAddress(
        await limiter(registrationPolicy(settings)),
        registrationPolicy(settings),
        addressKey,
        'too_many_registrations',
        'too many registrations from this address',
      ),
      admitResetRequest: perAddress(
        await limiter(resets.address),
        resets.address,
        addressKey,
        'too_many_reset_requests',
        'too many password-reset requests from this address',
      ),
      resetsOfMember: await limiter(resets.member),
      resetWork,
      passwordChecks,
      secondFactor,
      emailChanges: await counted(emailChangePolicy()),
    },
    credential: {
      events,
      readModels,
      keyLifetimeDays: settings.KEY_LIFETIME_DAYS ?? null,
      maxKeyLifetimeDays: settings.MAX_KEY_LIFETIME_DAYS,
      usage,
      memberExists: async (id) => Boolean(await memberReads(readModels).member(id)),
      adminName: async (id) => (await accessReads(readModels).admin(id))?.username ?? null,
      leaks: leakReporting(settings, await limiter(UNSIGNED_POSTS), addressKey),
      approvalRuleFor: approvalRuleFor(readModels),
    },
    access: {
      ...REGISTERED,
      events,
      readModels,
      hasher,
      sessions: stores.sessions,
      ...mail,
      passwordChecks,
      signInFailures,
      sso,
      secondFactor,
    },
    audit: { ...REGISTERED, events, documents, readModels, auditKey: auditKeys.current },
    addon: { events, readModels, catalogue, installedAddons, permissions: REGISTRY.permissions },
    webhook: {
      events,
      readModels,
      documents,
      webhookAllowPrivate: settings.WEBHOOK_ALLOW_PRIVATE,
      webhookEventTypes: REGISTRY.webhookEventTypes,
      webhookSecrets,
    },
    mail: { documents },
    'approval-rule': { events, readModels, maxKeyLifetimeDays: settings.MAX_KEY_LIFETIME_DAYS },
    sso: { events, sso },
    passkeys: { events, readModels, signInFailures, sso, relyingParty: relyingPartyOf(settings.PUBLIC_URL) },
  });
  return {
    endpoints,
    gate,
    guards: {
      admin: (permission) => requireAdmin(permission, accessReads(readModels)),
      partner: (scope) => requireScope(gate, scope),
      login: (realm, step) => loginLimits[realm][step],
    },
    keyRing: { status: () => keyRing.status(), stalenessMs: () => keyRing.stalenessMs(), maxStalenessMs: staleness },
    passwordChecksInFlight: hasher.inFlight,
    async close() {
      await keyRing.stop();
      await installedAddons.stop();
      await usage.stop();
      await resetWork.stop();
      await signInFailures.stop();
      mailer?.close();
    },
  };
}

type Seeding = Pick<ApiKernel, 'settings' | 'log' | 'stores'>;

// A request id of this start's own: event ids derive from it, and two instances seeding under one
// id would look to the event store like one retrying (KurrentDB then answers both as written).
const seedContext = () => ({
  actor: { kind: 'system' as const, id: 'seed' },
  requestId: `seed-${randomUUID()}`,
  now: new Date(),
});

/** The first start's role groups and member group, without `admin` (seedAdministrator). */
export async function seed({ stores }: Seeding): Promise<void> {
  await seedGroups(stores.events, seedContext(), REGISTRY.permissions);
}

/**
 * The first start's super administrator `admin`. A generated password is shown once through
 * `announce`, never in the structured log.
 */
export async function seedAdministrator(
  { settings, log, stores }: Seeding,
  announce?: (message: string) => void,
): Promise<void> {
  const { generatedAdminPassword } = await seedSuperAdministrator(
    stores.events,
    argon2Hasher(),
    settings.ADMIN_PASSWORD,
    settings.ADMIN_EMAIL,
    seedContext(),
  );
  if (generatedAdminPassword) {
    log.warn('seeded the super administrator "admin" with a generated password, shown once on the console');
    announce?.(
      `Super administrator created: username "admin", password "${generatedAdminPassword}". It is not shown again.`,
    );
  }
}

/** OIDC_* checked at the start: a single sign-on set up halfway refuses to start rather than fail at the first sign-in. */
function ssoSettingsOrRefuse(settings: Settings): SsoSettings | null {
  try {
    return ssoSettingsOf(settings);
  } catch (err) {
    throw new ConfigurationError(`invalid configuration: ${(err as Error).message}`);
  }
}
