import type Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { argon2Hasher, PasswordHasher } from './commands/passwords';
import { Settings } from './config';
import { createHttpApp } from './http/app';
import { AppState } from './http/context';
import { developerRoutes } from './http/routes/developer';
import { healthRoutes } from './http/routes/health';
import { membersProjection } from './projections/members';
import { Projection } from './projections/projection';
import { ReadModels } from './projections/read-models';
import { ProjectionRunner } from './projections/runner';
import { Stores } from './stores/ports';
import { openSqliteStores } from './stores/sqlite';

export const PROJECTIONS: Projection[] = [membersProjection as unknown as Projection];

export interface Platform {
  app: Koa<AppState>;
  router: Router<AppState>;
  stores: Stores;
  runner: ProjectionRunner;
  close(): Promise<void>;
}

export interface PlatformOptions {
  settings: Settings;
  log: Logger;
  /** Defaults to the embedded SQLite stores under settings.DATA_DIR. */
  stores?: Stores;
  hasher?: PasswordHasher;
}

/** The composition root: the one place where stores, projections, commands and HTTP meet. */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { settings, log } = options;
  const stores = options.stores ?? openSqliteStores(settings.DATA_DIR);
  const runner = new ProjectionRunner(stores.events, stores.documents, PROJECTIONS, log.child({ component: 'projections' }));
  await runner.start();
  const readModels = new ReadModels(stores.documents, runner, settings.READ_WAIT_MS);
  const hasher = options.hasher ?? argon2Hasher();

  const { app, router } = createHttpApp({
    settings,
    log,
    sessionStore: stores.sessions,
    routes(router) {
      healthRoutes(router, {
        stores,
        projections: () => ({
          status: runner.status,
          position: runner.position(),
          error: runner.failed() ? 'a projection failed: see the logs' : null,
        }),
      });
      developerRoutes(router, { events: stores.events, hasher, readModels });
    },
  });

  return {
    app,
    router,
    stores,
    runner,
    async close() {
      await runner.stop();
      await stores.close();
    },
  };
}
