import type Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { argon2Hasher } from './commands/passwords';
import { Settings } from './config';
import { createHttpApp } from './http/app';
import { AppState } from './http/context';
import { developerRoutes } from './http/routes/developer';
import { healthRoutes, ProjectionsHealth } from './http/routes/health';
import { CheckpointTracker } from './projections/checkpoint-tracker';
import { membersProjection } from './projections/members';
import { Projection } from './projections/projection';
import { PositionTracker, ReadModels } from './projections/read-models';
import { ProjectionRunner } from './projections/runner';
import { START, Stores } from './stores/ports';

export const PROJECTIONS: Projection[] = [membersProjection as unknown as Projection];

export interface Platform {
  app: Koa<AppState>;
  router: Router<AppState>;
  stores: Stores;
  close(): Promise<void>;
}

export interface PlatformOptions {
  settings: Settings;
  log: Logger;
  stores: Stores;
}

/** The composition root: the one place where stores, projections, commands and HTTP meet. */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { settings, log, stores } = options;
  const projections = await startProjections(settings, stores, log);
  const readModels = new ReadModels(stores.documents, projections.tracker, settings.READ_WAIT_MS);
  const hasher = argon2Hasher();

  const { app, router } = createHttpApp({
    settings,
    log,
    sessionStore: stores.sessions,
    routes(router) {
      healthRoutes(router, { stores, projections: projections.health });
      developerRoutes(router, { events: stores.events, hasher, readModels });
    },
  });

  return {
    app,
    router,
    stores,
    async close() {
      await projections.stop();
      await stores.close();
    },
  };
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
  const runner = new ProjectionRunner(stores.events, stores.documents, PROJECTIONS, log.child({ component: 'projections' }));
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
