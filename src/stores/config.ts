import { existsSync } from 'node:fs';
import { maskUrl } from './mask-url';
import { MONGO_TIMEOUTS, MONGO_WRITE_CONCERN } from './mongodb/settings';

/**
 * Which adapters the service runs on (docs/production.md): EVENTSTORE_URL and MONGODB_URL together select
 * KurrentDB (or EventStoreDB) and MongoDB; neither selects the embedded SQLite file under DATA_DIR.
 */
export type StoreConfig =
  { mode: 'embedded'; dataDir: string } | { mode: 'production'; eventStoreUrl: string; mongoUrl: string };

export type ProductionStoreConfig = Extract<StoreConfig, { mode: 'production' }>;

export class StoreConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConfigError';
  }
}

const EVENTSTORE_EXAMPLE = 'kurrentdb://localhost:2113?tls=false';
const MONGODB_EXAMPLE = 'mongodb://localhost:27017/platform';

/**
 * Which stores the environment names, before any URL is checked: the embedded ones, in their data
 * directory, unless EVENTSTORE_URL or MONGODB_URL is set (blank counts as unset).
 */
export function storesNamed(env: NodeJS.ProcessEnv): { mode: 'embedded'; dataDir: string } | { mode: 'production' } {
  if (nonBlank(env.EVENTSTORE_URL) === undefined && nonBlank(env.MONGODB_URL) === undefined) {
    return { mode: 'embedded', dataDir: nonBlank(env.DATA_DIR) ?? './data' };
  }
  return { mode: 'production' };
}

export function parseStoreConfig(env: NodeJS.ProcessEnv): StoreConfig {
  const named = storesNamed(env);
  if (named.mode === 'embedded') return named;
  const eventStoreUrl = nonBlank(env.EVENTSTORE_URL);
  const mongoUrl = nonBlank(env.MONGODB_URL);
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

/** The URL without user name, password or secret-bearing options, fit for logs and error messages. */
export const redactUrl = maskUrl;

/** scheme://[userinfo@]host[:port][,host[:port]...][/path][?query]; userinfo up to the authority's last @. */
const URL_SHAPE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(?:([^/?]*)@)?([^/?@]*)(\/[^?]*)?(\?.*)?$/;
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(\d+))?$/;
const EVENTSTORE_SCHEMES = ['kurrentdb', 'kurrentdb+discover', 'esdb', 'esdb+discover'];

/**
 * The KurrentDB client parses its connection string twice (in JavaScript for appends and
 * subscriptions, in the native bridge for reads) and the JavaScript parser silently misreads some
 * URLs: `user@host` becomes a host named "user@host", a second `:` or `@` in the credentials cuts
 * the password short, and IPv6 literals are refused. Such a URL would then fail for the whole
 * start-up budget as "unreachable", so it is refused here with the reason.
 */
function checkEventStoreUrl(url: string): void {
  const shown = redactUrl(url);
  const shape = URL_SHAPE.exec(url);
  // Case-sensitive, as the client compares it.
  const scheme = shape?.[1] ?? '';
  if (!shape || !EVENTSTORE_SCHEMES.includes(scheme)) {
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}' must start with kurrentdb://, kurrentdb+discover://, esdb:// or esdb+discover:// ` +
        `(e.g. ${EVENTSTORE_EXAMPLE})`,
    );
  }
  const credentials = shape[2];
  if (credentials !== undefined && !/^[^:@]+:[^:@]+$/.test(credentials)) {
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}': the client reads credentials only as user:password@, with no further : or @; ` +
        `percent-encode them in the user name and password (: as %3A, @ as %40)`,
    );
  }
  const hosts = shape[3] ?? '';
  if (hosts.includes('[')) {
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}': the KurrentDB client cannot parse IPv6 addresses; use a host name that resolves to it`,
    );
  }
  checkHosts('EVENTSTORE_URL', shown, hosts, EVENTSTORE_EXAMPLE);
  if (shape[4] !== undefined && shape[4] !== '/') {
    throw new StoreConfigError(`EVENTSTORE_URL '${shown}' must not have a path (e.g. ${EVENTSTORE_EXAMPLE})`);
  }
  checkEventStoreOptions(shown, new URLSearchParams(shape[5] ?? ''));
  checkEventStoreParses(url, shown);
}

/**
 * The client's own two parsers, which making a client runs without connecting: what they refuse
 * (a negative keep-alive, a deadline of 0, a number too large, a certificate without its key)
 * would otherwise fail every start-up attempt as "unreachable" until the budget runs out.
 */
function checkEventStoreParses(url: string, shown: string): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when configured, as src/stores/index.ts explains
  const { KurrentDBClient } = require('@kurrent/kurrentdb-client') as typeof import('@kurrent/kurrentdb-client');
  try {
    void KurrentDBClient.connectionString(url).dispose();
  } catch (error) {
    // The native bridge's errors come from another realm than this module's Error, so no instanceof.
    const message = String((error as { message?: unknown } | null)?.message ?? error);
    // Some of its messages repeat the whole URL, credentials included.
    throw new StoreConfigError(
      `EVENTSTORE_URL '${shown}': the KurrentDB client cannot parse it (${message.split(url).join(shown)})`,
    );
  }
}

const BOOLEAN_OPTIONS = ['tls', 'tlsverifycert'];
const INTEGER_OPTIONS = [
  'maxdiscoverattempts',
  'defaultdeadline',
  'discoveryinterval',
  'gossiptimeout',
  'keepaliveinterval',
  'keepalivetimeout',
];
const TEXT_OPTIONS = ['connectionname', 'nodepreference', 'tlscafile', 'usercertfile', 'userkeyfile'];
// Only the leader: the service reads back what it appended and compares checkpoints with the head
// of the log, and a follower that lags would answer an older log (a made-up "checkpoint after the
// head", a stream missing its last event).
const NODE_PREFERENCES = ['leader'];

/** The client matches option names ignoring case, - and _; it ignores unknown ones with only a console warning. */
function checkEventStoreOptions(shown: string, query: URLSearchParams): void {
  for (const [key, value] of query) {
    const name = key.toLowerCase().replace(/[_-]/g, '');
    const refusal = EVENTSTORE_OPTION_REFUSALS.find((rule) => rule.refuses(name, value));
    if (refusal) throw new StoreConfigError(`EVENTSTORE_URL '${shown}': ${refusal.because(key, value)}`);
  }
}

const KNOWN_OPTIONS = [...BOOLEAN_OPTIONS, ...INTEGER_OPTIONS, ...TEXT_OPTIONS];

/** The first rule an option breaks, in this order, is the one its refusal names. */
const EVENTSTORE_OPTION_REFUSALS: {
  refuses(name: string, value: string): boolean;
  because(key: string, value: string): string;
}[] = [
  {
    refuses: (name) => name === 'throwonappendfailure',
    because: () => 'throwOnAppendFailure is set by the service (a failed append must raise), not by the URL',
  },
  {
    refuses: (name, value) => BOOLEAN_OPTIONS.includes(name) && value !== 'true' && value !== 'false',
    because: (key) => `${key} must be true or false`,
  },
  {
    refuses: (name, value) => INTEGER_OPTIONS.includes(name) && !/^-?\d+$/.test(value),
    because: (key) => `${key} must be a whole number of milliseconds (or attempts)`,
  },
  {
    refuses: (name) => !KNOWN_OPTIONS.includes(name),
    because: (key) => `${key} is not an option the KurrentDB client knows`,
  },
  {
    refuses: (name, value) =>
      name === 'nodepreference' && !NODE_PREFERENCES.includes(value.toLowerCase().replace(/[_-]/g, '')),
    because: (key) =>
      `${key} must be leader (the service reads back its own appends, which a lagging follower may not have yet)`,
  },
  {
    refuses: (name, value) => name === 'tlscafile' && !existsSync(value),
    because: (_key, value) => `tlsCAFile ${value} does not exist`,
  },
];

function checkMongoUrl(url: string): void {
  const shown = redactUrl(url);
  const shape = URL_SHAPE.exec(url);
  const scheme = shape?.[1]?.toLowerCase();
  if (!shape || (scheme !== 'mongodb' && scheme !== 'mongodb+srv')) {
    throw new StoreConfigError(
      `MONGODB_URL '${shown}' must start with mongodb:// or mongodb+srv:// (e.g. ${MONGODB_EXAMPLE})`,
    );
  }
  const hosts = checkHosts('MONGODB_URL', shown, shape[3] ?? '', MONGODB_EXAMPLE);
  if (scheme === 'mongodb+srv' && (hosts.length !== 1 || hosts[0]?.port !== undefined)) {
    throw new StoreConfigError(`MONGODB_URL '${shown}': mongodb+srv:// takes exactly one host name and no port`);
  }
  checkMongoDatabase(shown, shape[4]);
  checkMongoParses(url, shown);
}

function checkMongoDatabase(shown: string, path: string | undefined): void {
  const database = decodeURIComponent((path ?? '').replace(/^\//, ''));
  if (database === '') {
    throw new StoreConfigError(`MONGODB_URL '${shown}' must name the database in its path (e.g. ${MONGODB_EXAMPLE})`);
  }
  // MongoDB's naming restrictions for databases (Unix and Windows deployments alike).
  if (/[/\\. "$*<>:|?]/.test(database) || Buffer.byteLength(database) >= 64) {
    throw new StoreConfigError(
      `MONGODB_URL '${shown}': '${database}' is not a valid MongoDB database name ` +
        `(fewer than 64 bytes, none of / \\ . " $ * < > : | ? or space)`,
    );
  }
}

/**
 * The driver's own parser, which constructing a client runs without connecting, with the options
 * the service adds: what it refuses (an unescaped : or @ in the password, an unknown option, a
 * value of the wrong kind) would otherwise fail every start-up attempt until the budget runs out.
 * Then what it accepts but fails on only when it connects: a TLS file that does not exist.
 */
function checkMongoParses(url: string, shown: string): void {
  const query = new URLSearchParams(URL_SHAPE.exec(url)?.[5] ?? '');
  for (const [key, value] of query) {
    const name = key.toLowerCase();
    if (MONGO_WRITE_CONCERN_OPTIONS.includes(name)) {
      throw new StoreConfigError(
        `MONGODB_URL '${shown}': ${key} is set by the service (every write waits for the journal of a majority), not by the URL`,
      );
    }
    if (Object.keys(MONGO_TIMEOUTS).some((option) => option.toLowerCase() === name)) {
      throw new StoreConfigError(
        `MONGODB_URL '${shown}': ${key} is set by the service (docs/production.md gives its time limits), not by the URL`,
      );
    }
    if (MONGO_FILE_OPTIONS.includes(name) && !existsSync(value)) {
      throw new StoreConfigError(`MONGODB_URL '${shown}': ${key} ${value} does not exist`);
    }
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when configured, as src/stores/index.ts explains
    const { MongoClient } = require('mongodb') as typeof import('mongodb');
    new MongoClient(url, { ...MONGO_TIMEOUTS, writeConcern: MONGO_WRITE_CONCERN });
  } catch (error) {
    // Not only the driver's MongoParseError: its URL parser throws a class of the same name of its own.
    if (!(error instanceof Error)) throw error;
    throw new StoreConfigError(
      `MONGODB_URL '${shown}': the MongoDB driver refuses it (${error.message}); ` +
        `check the option names and values, and percent-encode : / ? # [ ] @ in the user name and password`,
    );
  }
}

/** Write-concern options, which the URL would otherwise let override the service's own (a URL's journal=false wins). */
const MONGO_WRITE_CONCERN_OPTIONS = ['w', 'journal', 'j', 'wtimeoutms', 'wtimeout', 'fsync'];
const MONGO_FILE_OPTIONS = ['tlscafile', 'tlscertificatekeyfile', 'tlscrlfile', 'sslca', 'sslcert', 'sslkey'];

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
