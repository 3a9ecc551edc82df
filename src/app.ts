import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import {
  argon2Hasher,
  boundPasswordWork,
  emailChangePolicy,
  limitLoginFailures,
  loginAddressPolicy,
  loginPolicy,
  memberReads,
  passwordChangePolicy,
  PasswordHasher,
  resetPolicies,
} from './member';
import { accessReads, requireAdmin, seedPlatform, SignInFailures } from './access';
import { PROJECTIONS, REGISTRY, SliceDeps, sliceEndpoints } from './compose';
import { ConfigurationError, parseSettings, Settings } from './config';
import { SsoSettings, ssoSettingsOf } from './access/sso/settings';
import { createHttpApp } from './shared/http/app';
import { AppState } from './shared/http/context';
import { declarationsOnly } from './shared/http/declarations-only';
import { Endpoint, LoginRealm } from './shared/http/endpoints';
import {
  anonymousSessionPolicy,
  anonymousSessionQuota,
  perAddress,
  registrationPolicy,
} from './shared/http/address-limits';
import { limitMemberWrites, memberWritePolicy } from './shared/http/member-writes';
import { addressKeyOf } from './shared/http/client-address';
import { DeferredWork, spreadDelay } from './shared/deferred-work';
import { openApiPolicy, openApiQuota } from './shared/http/open-api-limit';
import { contractOf } from './shared/http/openapi';
import { requireMember } from './shared/http/guards';
import { apiKeysProjection, partnerGate, requireScope, UsageLedger } from './credential';
import { PartnerLane, partnerLane } from './shared/http/partner-lane';
import { countedMailer, startNotifications } from './notifications';
import { unlessUpgradeRequired } from './shared/http/upgrade-required';
import { contractEndpoints } from './shared/http/routes/contract';
import { healthEndpoints, ProjectionsHealth } from './shared/http/routes/health';
import { rootEndpoints } from './shared/http/routes/root';
import { addonsProjection } from './addon';
import { CheckpointTracker } from './shared/projections/checkpoint-tracker';
import { deadLetterHealth } from './shared/projections/dead-letters';
import { PositionTracker, ReadModels } from './shared/projections/read-models';
import { Replica, ReplicaStatus } from './shared/projections/replica';
import { ProjectionRunner } from './shared/projections/runner';
import { beat, HEARTBEATS, projectorStatus } from './shared/projections/heartbeat';
import { exitForRestart } from './fatal';
import { outdatedReadModels } from './shared/projections/versions';
import { loadAddonCatalogue } from './stores/addon-catalogue';
import { START, Stores } from './stores/ports';
import { observe } from './observability';
import { keyFilesOf, openKeyRing } from './audit/proof/key-ring';
import { webhookSecretsOf } from './webhook';

const UPGRADE_CHECK_MS = 2000;
// Reset requests waiting for their lookup and mail: each address may ask 10 an hour, so many waiting is a flood from many.
const RESET_REQUESTS_WAITING = 1000;

export interface Platform {
  /** What the HTTP server runs: the partner lane, then koa, with its middleware as it is at this call. */
  listener(): RequestListener;
  lane: PartnerLane;
  app: Koa<AppState>;
  router: Router<AppState>;
  /** Every endpoint with the caller it admits, as mounted on the router. */
  endpoints: Endpoint[];
  stores: Stores;
  /** The operators' metrics; `address` is null when METRICS_PORT is off. */
  metrics: { registry: Registry; address(): AddressInfo | null };
  close(): Promise<void>;
}

export interface PlatformOptions {
  settings: Settings;
  log: Logger;
  stores: Stores;
  /** Where a generated administrator password is shown, once; never the structured log. */
  announce?: (message: string) => void;
}

/** The composition root: the one place where stores, projections, commands and HTTP meet. */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { settings, log } = options;
  const observed = observe(settings, log);
  const stores = observed.meter(options.stores);
  const { events, documents } = stores;
  await seed(options, argon2Hasher());
  const hasher = boundPasswordWork(argon2Hasher(), settings.PASSWORD_CHECKS_IN_FLIGHT);

  const projections = await startProjections(settings, stores, log);
  const staleness = settings.KEY_RING_MAX_STALENESS_MS;
  const keyRing = new Replica(
    events,
    documents,
    apiKeysProjection,
    'apiid',
    log.child({ component: 'key-ring' }),
    staleness,
  );
  await keyRing.start();
  const catalogue = await loadAddonCatalogue(settings.ADDONS_DIR, log.child({ component: 'addons' }));
  const installedAddons = new Replica(
    events,
    documents,
    addonsProjection,
    'key',
    log.child({ component: 'installed-addons' }),
    staleness,
  );
  await installedAddons.start();
  const readModels = new ReadModels(events, documents, projections.tracker, keyRing, settings.READ_WAIT_MS);
  // Re-read every few seconds: an upgrade done by `platform upgrade` lifts the 503 without a restart.
  const outdated = outdatedReadModels(documents, PROJECTIONS, UPGRADE_CHECK_MS);
  const openApiLimit = openApiPolicy(settings);
  const usage = new UsageLedger(documents, log.child({ component: 'key-usage' }));
  await usage.start();
  const signInFailures = new SignInFailures(events, log.child({ component: 'sign-in-failures' }));
  signInFailures.start();
  const gate = partnerGate(keyRing, openApiQuota(await stores.rateLimits.limiter(openApiLimit), openApiLimit), usage);
  const addressKey = addressKeyOf(settings);
  const loginLimit = async (realm: LoginRealm) =>
    limitLoginFailures(
      {
        account: await stores.rateLimits.limiter(loginPolicy(settings, realm)),
        address: await stores.rateLimits.limiter(loginAddressPolicy(settings, realm)),
      },
      addressKey,
    );
  const loginLimits: Record<LoginRealm, Middleware<AppState>> = {
    member: await loginLimit('member'),
    admin: await loginLimit('admin'),
  };
  const admitRegistration = perAddress(
    await stores.rateLimits.limiter(registrationPolicy(settings)),
    addressKey,
    'too_many_registrations',
    'too many registrations from this address',
  );
  const admitAnonymousSession = anonymousSessionQuota(
    await stores.rateLimits.limiter(anonymousSessionPolicy(settings)),
    addressKey,
  );

  const resets = resetPolicies(settings);
  const resetWork = new DeferredWork(spreadDelay, RESET_REQUESTS_WAITING, () =>
    log.warn('a password-reset request was dropped: too many wait to be mailed'),
  );
  const admitResetRequest = perAddress(
    await stores.rateLimits.limiter(resets.address),
    addressKey,
    'too_many_reset_requests',
    'too many password-reset requests from this address',
  );
  // The member slice's own mail (reset and confirmation links), sent as the request is decided.
  const mailer = countedMailer(settings, observed.notifications?.mailed);

  const webhookSecrets = webhookSecretsOf(settings, stores);
  await webhookSecrets.start(stores.events);
  // Before anything is served: a key that did not sign the log's checkpoints refuses the start.
  const auditKeys = await openKeyRing(keyFilesOf(settings), stores.events);
  const endpoints = declareEndpoints({
    stores,
    events,
    hasher,
    admitRegistration,
    readModels,
    projectionsHealth: projections.health,
    keyRingStatus: () => keyRing.status(),
    outdatedReadModels: outdated,
    catalogue,
    installedAddons,
    keyLifetimeDays: settings.KEY_LIFETIME_DAYS ?? null,
    usage,
    documents,
    webhookAllowPrivate: settings.WEBHOOK_ALLOW_PRIVATE,
    auditKey: auditKeys.current,
    memberExists: async (id) => Boolean(await memberReads(readModels).member(id)),
    adminName: async (id) => (await accessReads(readModels).admin(id))?.username ?? null,
    webhookSecrets,
    maxKeyLifetimeDays: settings.MAX_KEY_LIFETIME_DAYS,
    sessions: stores.sessions,
    sendMail: mailer?.send ?? null,
    publicUrl: settings.PUBLIC_URL,
    admitResetRequest,
    resetsOfMember: await stores.rateLimits.limiter(resets.member),
    resetWork,
    passwordChecks: await stores.rateLimits.limiter(passwordChangePolicy(settings)),
    emailChanges: await stores.rateLimits.limiter(emailChangePolicy()),
    signInFailures,
    sso: ssoSettingsOrRefuse(settings),
  });
  const stopNotifications =
    settings.PROJECTIONS === 'inline' ? await startNotifications(settings, stores, log, observed.notifications) : null;
  const { app, router } = createHttpApp({
    settings,
    log,
    sessionStore: stores.sessions,
    idempotency: stores.documents.idempotency,
    admitAnonymousSession,
    endpoints,
    instruments: observed.koa,
    guards: {
      member: requireMember,
      memberWrite: limitMemberWrites(
        await stores.rateLimits.limiter(memberWritePolicy(settings)),
        memberWritePolicy(settings),
      ),
      admin: (permission) => unlessUpgradeRequired(outdated, requireAdmin(permission, accessReads(readModels))),
      partner: (scope) => observed.partnerGuard(scope, requireScope(gate, scope)),
      login: (realm) => observed.loginGuard(realm, loginLimits[realm]),
    },
  });

  const lane = partnerLane(endpoints, gate, log, observed.lane);
  const metrics = await observed.serve({
    stores,
    projections: projections.progress,
    keyRing: { stalenessMs: () => keyRing.stalenessMs(), maxStalenessMs: staleness },
    passwordChecksInFlight: hasher.inFlight,
  });
  return {
    listener: () => observed.listener(lane.in(app.callback()), lane),
    lane,
    app,
    router,
    endpoints,
    stores,
    metrics: { registry: observed.registry, address: () => metrics?.address() ?? null },
    async close() {
      await observed.close();
      await keyRing.stop();
      await installedAddons.stop();
      await usage.stop();
      await resetWork.stop();
      await signInFailures.stop();
      await stopNotifications?.();
      mailer?.close();
      await projections.stop();
      await stores.close();
    },
  };
}

type EndpointDeps = SliceDeps & {
  stores: Stores;
  projectionsHealth: () => Promise<ProjectionsHealth>;
  keyRingStatus: () => ReplicaStatus;
  outdatedReadModels: () => Promise<string[]>;
};

/** Every endpoint of the service; the OpenAPI contract is generated from this same list. */
function declareEndpoints(deps: EndpointDeps): Endpoint[] {
  const { stores } = deps;
  const endpoints: Endpoint[] = [
    ...healthEndpoints({
      stores,
      projections: deps.projectionsHealth,
      keyRing: deps.keyRingStatus,
      deadLetters: () => deadLetterHealth(stores.documents),
      heartbeatAgeMs: async () => (await projectorStatus(stores.documents)).age_ms,
      outdatedReadModels: deps.outdatedReadModels,
    }),
    ...sliceEndpoints(deps),
    ...contractEndpoints(() => endpoints, REGISTRY.openApiRefusals),
    ...rootEndpoints(),
  ];
  return endpoints;
}

/** The contract the service serves at GET /openapi, without a running service (`platform openapi`). */
export function platformContract() {
  // The bounds settings put on inputs, at their defaults: the contract a client reads before any is set.
  const known = { maxKeyLifetimeDays: parseSettings({}).MAX_KEY_LIFETIME_DAYS };
  return contractOf(declareEndpoints(declarationsOnly<EndpointDeps>('dependencies', known)), REGISTRY.openApiRefusals);
}

async function seed(options: PlatformOptions, hasher: PasswordHasher): Promise<void> {
  // A request id of this start's own: event ids derive from it, and two instances seeding under one
  // id would look to the event store like one retrying (KurrentDB then answers both as written).
  const ctx = { actor: { kind: 'system' as const, id: 'seed' }, requestId: `seed-${randomUUID()}`, now: new Date() };
  const { generatedAdminPassword } = await seedPlatform(
    options.stores.events,
    hasher,
    options.settings.ADMIN_PASSWORD,
    options.settings.ADMIN_EMAIL,
    ctx,
    REGISTRY.permissions,
  );
  if (generatedAdminPassword) {
    options.log.warn('seeded the super administrator "admin" with a generated password, shown once on the console');
    options.announce?.(
      `Super administrator created: username "admin", password "${generatedAdminPassword}". It is not shown again.`,
    );
  }
}

const NOT_BEATING: Record<string, string> = {
  stale: 'the projector stopped writing its heartbeat: dead, hung, or cut off from the document store',
  absent: 'no projector has written a heartbeat yet: start `platform project`',
  failed: 'the projector failed: see its logs',
  stopped: 'the projector was stopped',
};

/** Inline: this process runs the projections. Off: a `platform project` process does, and reads wait on its checkpoints. */
async function startProjections(settings: Settings, stores: Stores, log: Logger) {
  if (settings.PROJECTIONS === 'off') {
    const names = PROJECTIONS.map((p) => p.name);
    await stores.documents.ensureCollections([HEARTBEATS]);
    return {
      tracker: new CheckpointTracker(stores.documents, names) as PositionTracker,
      health: async (): Promise<ProjectionsHealth> => {
        const checkpoints = await stores.documents.checkpoints(names);
        const position = checkpoints.reduce((a, b) => (a < b ? a : b), checkpoints[0] ?? START);
        const { status } = await projectorStatus(stores.documents);
        return { status, position, error: NOT_BEATING[status] ?? null };
      },
      // The projector's own metrics tell where its projections stand.
      progress: undefined,
      stop: async () => {},
    };
  }
  stores.claimProjections();
  const runner = new ProjectionRunner(
    stores.events,
    stores.documents,
    PROJECTIONS,
    log.child({ component: 'projections' }),
    {
      autoUpgrade: settings.AUTO_UPGRADE,
      giveUpMs: settings.PROJECTION_GIVE_UP_MS,
      onGiveUp: exitForRestart(log),
    },
  );
  await runner.start();
  // Beats as a projector does: an API started with PROJECTIONS=off beside this one reports it.
  await stores.documents.ensureCollections([HEARTBEATS]);
  const stopBeating = await beat(stores.documents, runner, log.child({ component: 'projections' }));
  return {
    tracker: runner as PositionTracker,
    health: async (): Promise<ProjectionsHealth> => ({
      status: runner.status,
      position: runner.position(),
      error: runner.failed() ? 'a projection failed: see the logs' : null,
    }),
    progress: {
      names: PROJECTIONS.map((p) => p.name),
      checkpoint: (name: string) => runner.follower(name)?.checkpoint,
    },
    stop: async () => {
      await runner.stop();
      await stopBeating();
    },
  };
}

/** OIDC_* checked at the start: a single sign-on set up halfway refuses to start rather than fail at the first sign-in. */
function ssoSettingsOrRefuse(settings: Settings): SsoSettings | null {
  try {
    return ssoSettingsOf(settings);
  } catch (err) {
    throw new ConfigurationError(`invalid configuration: ${(err as Error).message}`);
  }
}
