import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { declaredSliceEndpoints, PROJECTIONS, REGISTRY } from './compose';
import { composeApi, seed, seedAdministrator as seedSuperAdministrator } from './compose-api';
import { parseSettings, Settings } from './config';
import { createHttpApp } from './shared/http/app';
import { AppState } from './shared/http/context';
import { declarationsOnly } from './shared/http/declarations-only';
import { Endpoint } from './shared/http/endpoints';
import { anonymousSessionPolicy, anonymousSessionQuota } from './shared/http/address-limits';
import { limitMemberWrites, memberWritePolicy } from './shared/http/member-writes';
import { addressKeyOf, clientAddressOf } from './shared/http/client-address';
import { contractOf } from './shared/http/openapi';
import { requireMember } from './shared/http/guards';
import { PartnerLane, partnerLane } from './shared/http/partner-lane';
import { startNotifications } from './notifications';
import { unlessUpgradeRequired } from './shared/http/upgrade-required';
import { servedContract } from './shared/http/routes/contract';
import { healthEndpoints, HealthDeps, ProjectionsHealth } from './shared/http/routes/health';
import { rootEndpoints } from './shared/http/routes/root';
import { deadLetterHealth } from './shared/projections/dead-letters';
import { beat, HEARTBEATS, projectorStatus } from './shared/projections/heartbeat';
import { CheckpointTracker } from './shared/projections/checkpoint-tracker';
import { PositionTracker } from './shared/projections/read-models';
import { ProjectionRunner } from './shared/projections/runner';
import { exitForRestart } from './fatal';
import { outdatedReadModels } from './shared/projections/versions';
import { START, Stores } from './stores/ports';
import { observe } from './observability';

const UPGRADE_CHECK_MS = 2000;

export interface Platform {
  /** What the HTTP server runs: the partner lane, then koa, with its middleware as it is at this call. */
  listener(): RequestListener;
  /** Builds the contract GET /openapi serves now, not at its first request (about a second). */
  prepareContract(): void;
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
  /**
   * 'later': the caller creates the super administrator with seedAdministrator once the service
   * answers (src/serve.ts), so that a start failing before it shows no password nobody will see.
   */
  administrator?: 'now' | 'later';
}

/** The first start's super administrator `admin`; a generated password is announced, once. */
export const seedAdministrator = (options: PlatformOptions): Promise<void> =>
  seedSuperAdministrator(options, options.announce);

/**
 * The API process: its stores metered, the projections started (or followed), the slices composed
 * (compose-api.ts), the notifiers started from the registry, and the HTTP app with the kernel's
 * endpoints (health, contract, root) around the slices'.
 */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { settings, log } = options;
  const observed = observe(settings, log);
  const stores = observed.meter(options.stores);
  await seed({ settings, log, stores });
  if (options.administrator !== 'later') await seedSuperAdministrator({ settings, log, stores }, options.announce);
  const projections = await startProjections(settings, stores, log);
  const api = await composeApi({
    settings,
    log,
    stores,
    tracker: projections.tracker,
    mailed: observed.notifications?.mailed,
  });
  // Re-read every few seconds: an upgrade done by `platform upgrade` lifts the 503 without a restart.
  const outdated = outdatedReadModels(stores.documents, PROJECTIONS, UPGRADE_CHECK_MS);
  const { endpoints, prepareContract } = declareEndpoints(api.endpoints, {
    stores,
    projections: projections.health,
    keyRing: api.keyRing.status,
    deadLetters: () => deadLetterHealth(stores.documents),
    heartbeatAgeMs: async () => (await projectorStatus(stores.documents)).age_ms,
    outdatedReadModels: outdated,
  });
  const stopNotifications =
    settings.PROJECTIONS === 'inline' ? await startNotifications(settings, stores, log, observed.notifications) : null;
  const memberWrites = memberWritePolicy(settings);
  const { app, router } = createHttpApp({
    settings,
    log,
    sessionStore: stores.sessions,
    idempotency: stores.documents.idempotency,
    admitAnonymousSession: anonymousSessionQuota(
      await stores.rateLimits.limiter(anonymousSessionPolicy(settings)),
      addressKeyOf(settings),
    ),
    endpoints,
    instruments: observed.koa,
    guards: {
      member: requireMember,
      memberWrite: limitMemberWrites(await stores.rateLimits.limiter(memberWrites), memberWrites),
      admin: (permission) => unlessUpgradeRequired(outdated, api.guards.admin(permission)),
      partner: (scope) => observed.partnerGuard(scope, api.guards.partner(scope)),
      login: (realm, step) => observed.loginGuard(realm, api.guards.login(realm, step)),
    },
  });

  const lane = partnerLane(endpoints, api.gate, clientAddressOf(settings.TRUST_PROXY), log, observed.lane);
  const metrics = await observed.serve({
    stores,
    projections: projections.progress,
    keyRing: api.keyRing,
    passwordChecksInFlight: api.passwordChecksInFlight,
  });
  return {
    listener: () => observed.listener(lane.in(app.callback()), lane),
    prepareContract,
    lane,
    app,
    router,
    endpoints,
    stores,
    metrics: { registry: observed.registry, address: () => metrics?.address() ?? null },
    async close() {
      await observed.close();
      await api.close();
      await stopNotifications?.();
      await projections.stop();
      await stores.close();
    },
  };
}

/** Every endpoint of the service, the kernel's around the slices'; the OpenAPI contract is generated from this same list. */
function declareEndpoints(slices: Endpoint[], health: HealthDeps): { endpoints: Endpoint[]; prepareContract(): void } {
  const contract = servedContract(() => endpoints, REGISTRY.openApiRefusals);
  const endpoints: Endpoint[] = [...healthEndpoints(health), ...slices, ...contract.endpoints, ...rootEndpoints()];
  return { endpoints, prepareContract: contract.prepare };
}

/** The contract the service serves at GET /openapi, without a running service (`platform openapi`). */
export function platformContract() {
  // The bounds settings put on inputs, at their defaults: the contract a client reads before any is set.
  const known = { maxKeyLifetimeDays: parseSettings({}).MAX_KEY_LIFETIME_DAYS };
  const { endpoints } = declareEndpoints(
    declaredSliceEndpoints(known),
    declarationsOnly<HealthDeps>('health dependencies'),
  );
  return contractOf(endpoints, REGISTRY.openApiRefusals);
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
