import type { Logger } from 'pino';
import { StoreConfig } from './config';
import { Stores } from './ports';
import { openProductionStores } from './production';
import { openSqliteStores } from './sqlite';

/** The adapters the configuration selects: EventStoreDB and MongoDB, or the embedded SQLite file. */
export async function openStores(config: StoreConfig, log: Logger): Promise<Stores> {
  if (config.mode === 'embedded') return openSqliteStores(config.dataDir);
  return openProductionStores(config, log);
}
