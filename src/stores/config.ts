/**
 * Which adapters the service runs on (DESIGN §2): EVENTSTORE_URL and MONGODB_URL together select
 * EventStoreDB and MongoDB; neither selects the embedded SQLite file under DATA_DIR.
 */
export type StoreConfig =
  | { mode: 'embedded'; dataDir: string }
  | { mode: 'production'; eventStoreUrl: string; mongoUrl: string };

export type ProductionStoreConfig = Extract<StoreConfig, { mode: 'production' }>;

export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConfigError';
  }
}

const EVENTSTORE_EXAMPLE = 'esdb://localhost:2113?tls=false';
const MONGODB_EXAMPLE = 'mongodb://localhost:27017/platform';

export function parseStoreConfig(env: NodeJS.ProcessEnv): StoreConfig {
  const eventStoreUrl = nonBlank(env.EVENTSTORE_URL);
  const mongoUrl = nonBlank(env.MONGODB_URL);
  if (eventStoreUrl === undefined && mongoUrl === undefined) {
    return { mode: 'embedded', dataDir: nonBlank(env.DATA_DIR) ?? './data' };
  }
  if (mongoUrl === undefined) {
    throw new StoreConfigError(
      `EVENTSTORE_URL is set but MONGODB_URL is missing: the production stores need both ` +
        `(e.g. MONGODB_URL=${MONGODB_EXAMPLE}); unset EVENTSTORE_URL to run embedded`,
    );
  }
  if (eventStoreUrl === undefined) {
    throw new StoreConfigError(
      `MONGODB_URL is set but EVENTSTORE_URL is missing: the production stores need both ` +
        `(e.g. EVENTSTORE_URL=${EVENTSTORE_EXAMPLE}); unset MONGODB_URL to run embedded`,
    );
  }
  checkEventStoreUrl(eventStoreUrl);
  checkMongoUrl(mongoUrl);
  return { mode: 'production', eventStoreUrl, mongoUrl };
}

/** The URL without user name and password, fit for logs and error messages. */
export function redactUrl(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^@/?]*@/, '$1');
}

/** scheme://[user[:password]@]host[:port][,host[:port]...][/path][?query] */
const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(?:[^@/?]*@)?([^/?]*)(\/[^?]*)?(\?.*)?$/;
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d+))?$/;

function checkEventStoreUrl(url: string): void {
  const shown = redactUrl(url);
  const shape = URL_SHAPE.exec(url);
  const scheme = shape?.[1]?.toLowerCase();
  if (scheme === 'kurrentdb' || scheme === 'kurrentdb+discover' || scheme === 'kdb' || scheme === 'kdb+discover') {
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}': ${scheme}:// is the scheme of @kurrent/kurrentdb-client; this service ` +
        `uses @eventstore/db-client 6, whose connection strings start with esdb:// or esdb+discover:// ` +
        `(e.g. ${EVENTSTORE_EXAMPLE})`,
    );
  }
  if (!shape || (scheme !== 'esdb' && scheme !== 'esdb+discover')) {
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}' must start with esdb:// or esdb+discover:// (e.g. ${EVENTSTORE_EXAMPLE})`,
    );
  }
  checkHosts('EVENTSTORE_URL', shown, shape[2] ?? '', EVENTSTORE_EXAMPLE);
  if (shape[3] !== undefined && shape[3] !== '/') {
    throw new StoreConfigError(`EVENTSTORE_URL '${shown}' must not have a path (e.g. ${EVENTSTORE_EXAMPLE})`);
  }
}

function checkMongoUrl(url: string): void {
  const shown = redactUrl(url);
  const shape = URL_SHAPE.exec(url);
  const scheme = shape?.[1]?.toLowerCase();
  if (!shape || (scheme !== 'mongodb' && scheme !== 'mongodb+srv')) {
    throw new StoreConfigError(
      `MONGODB_URL '${shown}' must start with mongodb:// or mongodb+srv:// (e.g. ${MONGODB_EXAMPLE})`,
    );
  }
  const hosts = checkHosts('MONGODB_URL', shown, shape[2] ?? '', MONGODB_EXAMPLE);
  if (scheme === 'mongodb+srv' && (hosts.length !== 1 || hosts[0]?.port !== undefined)) {
    throw new StoreConfigError(`MONGODB_URL '${shown}': mongodb+srv:// takes exactly one host name and no port`);
  }
  const database = decodeURIComponent((shape[3] ?? '').replace(/^\//, ''));
  if (database === '') {
    throw new StoreConfigError(
      `MONGODB_URL '${shown}' must name the database in its path (e.g. ${MONGODB_EXAMPLE})`,
    );
  }
  // MongoDB's naming restrictions for databases (Unix and Windows deployments alike).
  if (/[/\\. "$*<>:|?]/.test(database) || Buffer.byteLength(database) >= 64) {
    throw new StoreConfigError(
      `MONGODB_URL '${shown}': '${database}' is not a valid MongoDB database name ` +
        `(fewer than 64 bytes, none of / \\ . " $ * < > : | ? or space)`,
    );
  }
}

function checkHosts(variable: string, shown: string, list: string, example: string): { host: string; port?: number }[] {
  if (list === '') throw new StoreConfigError(`${variable} '${shown}' names no host (e.g. ${example})`);
  return list.split(',').map((entry) => {
    const match = HOST.exec(entry);
    if (!match) throw new StoreConfigError(`${variable} '${shown}': '${entry}' is not a host[:port]`);
    if (match[2] === undefined) return { host: match[1] as string };
    const port = Number(match[2]);
    if (port < 1 || port > 65535) {
      throw new StoreConfigError(`${variable} '${shown}': port ${match[2]} is outside 1-65535`);
    }
    return { host: match[1] as string, port };
  });
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === '' ? undefined : trimmed;
}
