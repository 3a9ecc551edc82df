import type { Logger } from 'pino';
import { parseStoreConfig, StoreConfig } from './config';
import { Stores } from './ports';
import { openSqliteStores } from './sqlite';

/**
 * The adapters the configuration selects: EventStoreDB and MongoDB, or the embedded SQLite file.
 * The production drivers are loaded only when chosen: an embedded process (a rebuild, above all)
 * would otherwise carry some 15 MB of their code in a heap the garbage collector lets grow to
 * several times what it holds.
 */
export async function openStores(config: StoreConfig, log: Logger): Promise<Stores> {
  if (config.mode === 'embedded') return openSqliteStores(config.dataDir);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand; see above
  const { openProductionStores } = require('./production') as typeof import('./production');
  return openProductionStores(config, log);
}

/** The stores the environment names, for the API, the projector and the CLI alike. */
export function openConfiguredStores(env: NodeJS.ProcessEnv, log: Logger): Promise<Stores> {
  return openStores(parseStoreConfig(env), log);
}
