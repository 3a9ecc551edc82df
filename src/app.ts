import type Koa from 'koa';
import type { Middleware } from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { argon2Hasher, PasswordHasher } from './commands/passwords';
import { seedPlatform } from './commands/seed';
import { Settings } from './config';
import { AddonCatalogue } from './domain/addon-manifest';
import { createHttpApp } from './http/app';
import { AppContext, AppState } from './http/context';
import { declarationsOnly } from './http/declarations-only';
import { Endpoint, LoginRealm } from './http/endpoints';
import { anonymousSessionPolicy, perAddress, registrationPolicy } from './http/address-limits';
import { limitLoginFailures, loginAddressPolicy, loginPolicy } from './http/login-limit';
import { boundPasswordWork } from './http/password-work';
import { openApiPolicy, openApiQuota } from './http/open-api-limit';
import { contractOf } from './http/openapi';
import { requireAdmin, requireMember } from './http/guards';
import { requireScope } from './http/partner';
import { unlessUpgradeRequired } from './http/upgrade-required';
import { adminSessionEndpoints } from './http/routes/admin-session';
import { applicationCenterEndpoints } from './http/routes/application-center';
import { auditEndpoints } from './http/routes/audit';
import { contractEndpoints } from './http/routes/contract';
import { credentialReviewEndpoints } from './http/routes/credential-review';
import { developerEndpoints } from './http/routes/developer';
import { developerCredentialEndpoints } from './http/routes/developer-credential';
import { healthEndpoints, ProjectionsHealth } from './http/routes/health';
import { openEndpoints } from './http/routes/open';
import { rootEndpoints } from './http/routes/root';
import { AddonDocument, addonsProjection } from './projections/addons';
import { adminsProjection } from './projections/admins';
import { apiKeysProjection } from './projections/api-keys';
import { CheckpointTracker } from './projections/checkpoint-tracker';
import { deadLetterHealth } from './projections/dead-letters';
import { credentialsProjection } from './projections/credentials';
import { memberGroupsProjection, roleGroupsProjection } from './projections/groups';
import { membersProjection } from './projections/members';
import { Projection } from './projections/projection';
import { allOf, PositionTracker, ReadModels } from './projections/read-models';
import { Replica } from './projections/replica';
import { ProjectionRunner } from './projections/runner';
import { scopeRequestsProjection } from './projections/scope-requests';
import { outdatedReadModels } from './projections/versions';
import { loadAddonCatalogue } from './stores/addon-catalogue';
import { START, Stores } from './stores/ports';

export const PROJECTIONS = [
  membersProjection,
  credentialsProjection,
  scopeRequestsProjection,
  apiKeysProjection,
  roleGroupsProjection,
  memberGroupsProjection,
  adminsProjection,
  addonsProjection,
] as unknown as Projection[];

const UPGRADE_CHECK_MS = 2000;

export interface Platform {
  app: Koa<AppState>;
  router: Router<AppState>;
  /** Every endpoint with the caller it admits, as mounted on the router. */
  endpoints: Endpoint[];
  stores: Stores;
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
  const { settings, log, stores } = options;
  const { events, documents } = stores;
  await seed(options, argon2Hasher());
  const hasher = boundPasswordWork(argon2Hasher(), settings.PASSWORD_CHECKS_IN_FLIGHT);

  const projections = await startProjections(settings, stores, log);
  const keyRing = new Replica(events, documents, apiKeysProjection, 'apiid', log.child({ component: 'key-ring' }));
  await keyRing.start();
  const catalogue = await loadAddonCatalogue(settings.ADDONS_DIR, log.child({ component: 'addons' }));
  const installedAddons = new Replica(events, documents, addonsProjection, 'key', log.child({ component: 'installed-addons' }));
  await installedAddons.start();
  const readModels = new ReadModels(events, documents, allOf(projections.tracker, keyRing), settings.READ_WAIT_MS);
  // Re-read every few seconds: an upgrade done by `platform upgrade` lifts the 503 without a restart.
  const outdated = outdatedReadModels(documents, PROJECTIONS, UPGRADE_CHECK_MS);
  const openApiLimit = openApiPolicy(settings);
  const partnerQuota = openApiQuota(await stores.rateLimits.limiter(openApiLimit), openApiLimit);
  const loginLimit = async (realm: LoginRealm) =>
    limitLoginFailures({
      account: await stores.rateLimits.limiter(loginPolicy(settings, realm)),
      address: await stores.rateLimits.limiter(loginAddressPolicy(settings, realm)),
    });
  const loginLimits: Record<LoginRealm, Middleware<AppState>> = { member: await loginLimit('member'), admin: await loginLimit('admin') };
  const admitRegistration = perAddress(await stores.rateLimits.limiter(registrationPolicy(settings)), 'too_many_registrations', 'too many registrations from this address');
  const admitAnonymousSession = perAddress(
    await stores.rateLimits.limiter(anonymousSessionPolicy(settings)),
    'too_many_sessions',
    'too many new sessions from this address',
  );

  const endpoints = declareEndpoints({
    stores,
    hasher,
    admitRegistration,
    readModels,
    projectionsHealth: projections.health,
    keyRingStatus: () => keyRing.status(),
    catalogue,
    installedAddons,
  });
  const { app, router } = createHttpApp({
    settings,
    log,
    sessionStore: stores.sessions,
    admitAnonymousSession,
    endpoints,
    guards: {
      member: requireMember,
      admin: (permission) => unlessUpgradeRequired(outdated, requireAdmin(permission, (id) => readModels.roleGroup(id))),
      partner: (scope) => requireScope(keyRing, scope, partnerQuota),
      login: (realm) => loginLimits[realm],
    },
  });

  return {
    app,
    router,
    endpoints,
    stores,
    async close() {
      await keyRing.stop();
      await installedAddons.stop();
      await projections.stop();
      await stores.close();
    },
  };
}

interface EndpointDeps {
  stores: Stores;
  hasher: PasswordHasher;
  admitRegistration(ctx: AppContext): Promise<void>;
  readModels: ReadModels;
  projectionsHealth: () => Promise<ProjectionsHealth>;
  keyRingStatus: () => 'following' | 'resubscribing';
  catalogue: AddonCatalogue;
  installedAddons: Pick<Replica<AddonDocument>, 'lookup'>;
}

/** Every endpoint of the service; the OpenAPI contract is generated from this same list. */
function declareEndpoints(deps: EndpointDeps): Endpoint[] {
  const { stores, hasher, readModels, catalogue } = deps;
  const { events } = stores;
  const endpoints: Endpoint[] = [
    ...healthEndpoints({
      stores,
      projections: deps.projectionsHealth,
      keyRing: deps.keyRingStatus,
      deadLetters: () => deadLetterHealth(stores.documents),
    }),
    ...developerEndpoints({ events, hasher, admitRegistration: deps.admitRegistration, readModels }),
    ...developerCredentialEndpoints({ events, readModels }),
    ...adminSessionEndpoints({ events, hasher }),
    ...credentialReviewEndpoints({ events, readModels }),
    ...auditEndpoints({ events, readModels }),
    ...applicationCenterEndpoints({ events, readModels, catalogue }),
    ...openEndpoints({ readModels, catalogue, installedAddons: deps.installedAddons }),
    ...contractEndpoints(() => endpoints),
    ...rootEndpoints(),
  ];
  return endpoints;
}

/** The contract the service serves at GET /openapi, without a running service (`platform openapi`). */
export function platformContract() {
  return contractOf(declareEndpoints(declarationsOnly<EndpointDeps>()));
}

async function seed(options: PlatformOptions, hasher: PasswordHasher): Promise<void> {
  const ctx = { actor: { kind: 'system' as const, id: 'seed' }, requestId: 'seed', now: new Date() };
  const { generatedAdminPassword } = await seedPlatform(options.stores.events, hasher, options.settings.ADMIN_PASSWORD, ctx);
  if (generatedAdminPassword) {
    options.log.warn('seeded the super administrator "admin" with a generated password, shown once on the console');
    options.announce?.(`Super administrator created: username "admin", password "${generatedAdminPassword}". It is not shown again.`);
  }
}

/** Inline: this process runs the projections. Off: a `platform project` process does, and reads wait on its checkpoints. */
async function startProjections(settings: Settings, stores: Stores, log: Logger) {
  if (settings.PROJECTIONS === 'off') {
    const names = PROJECTIONS.map((p) => p.name);
    return {
      tracker: new CheckpointTracker(stores.documents, names) as PositionTracker,
      health: async (): Promise<ProjectionsHealth> => {
        const checkpoints = await Promise.all(names.map((n) => stores.documents.checkpoint(n)));
        const position = checkpoints.reduce((a, b) => (a < b ? a : b), checkpoints[0] ?? START);
        return { status: 'external', position, error: null };
      },
      stop: async () => {},
    };
  }
  const runner = new ProjectionRunner(stores.events, stores.documents, PROJECTIONS, log.child({ component: 'projections' }), {
    autoUpgrade: settings.AUTO_UPGRADE,
  });
  await runner.start();
  return {
    tracker: runner as PositionTracker,
    health: async (): Promise<ProjectionsHealth> => ({
      status: runner.status,
      position: runner.position(),
      error: runner.failed() ? 'a projection failed: see the logs' : null,
    }),
    stop: () => runner.stop(),
  };
}
