import { StoreConfigError, parseStoreConfig, redactUrl } from '../../../src/stores/config';

const ESDB = 'esdb://localhost:2113?tls=false';
const MONGO = 'mongodb://localhost:27017/platform';

function failure(env: NodeJS.ProcessEnv): string {
  try {
    parseStoreConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(StoreConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected a configuration error for ${JSON.stringify(env)}`);
}

describe('store configuration', () => {
  it('runs embedded on ./data when neither URL is set', () => {
    expect(parseStoreConfig({})).toEqual({ mode: 'embedded', dataDir: './data' });
    expect(parseStoreConfig({ DATA_DIR: '/var/lib/platform' })).toEqual({
      mode: 'embedded',
      dataDir: '/var/lib/platform',
    });
  });

  it('treats blank variables as unset, as compose files leave them', () => {
    expect(parseStoreConfig({ EVENTSTORE_URL: '', MONGODB_URL: '  ', DATA_DIR: '' })).toEqual({
      mode: 'embedded',
      dataDir: './data',
    });
  });

  it('runs on the production stores when both URLs are set', () => {
    expect(parseStoreConfig({ EVENTSTORE_URL: ESDB, MONGODB_URL: MONGO, DATA_DIR: '/ignored' })).toEqual({
      mode: 'production',
      eventStoreUrl: ESDB,
      mongoUrl: MONGO,
    });
  });

  it.each([
    'esdb://localhost:2113?tls=false',
    'esdb://admin:changeit@localhost:2113?tls=true&tlsVerifyCert=false',
    'esdb+discover://cluster.example.com:2113',
    'esdb://node1:2113,node2:2113,node3:2113?nodePreference=leader',
    'kurrentdb://localhost:2113/?tls=false',
    'kurrentdb://admin:pa%3Ass%40word@localhost:2113?tls=true&tlsVerifyCert=false&defaultDeadline=5000',
    'kurrentdb+discover://cluster.example.com:2113',
  ])('accepts the event store URL %s', (url) => {
    expect(parseStoreConfig({ EVENTSTORE_URL: url, MONGODB_URL: MONGO })).toMatchObject({ eventStoreUrl: url });
  });

  it.each([
    'mongodb://localhost:27017/platform',
    'mongodb://app:s3cret@mongo1:27017,mongo2:27017,mongo3:27017/platform?replicaSet=rs0',
    'mongodb+srv://app:s3cret@cluster0.example.mongodb.net/platform?retryWrites=true',
  ])('accepts the MongoDB URL %s', (url) => {
    expect(parseStoreConfig({ EVENTSTORE_URL: ESDB, MONGODB_URL: url })).toMatchObject({ mongoUrl: url });
  });

  it('names the missing variable when only one is set', () => {
    expect(failure({ EVENTSTORE_URL: ESDB })).toBe(
      'EVENTSTORE_URL is set but MONGODB_URL is missing: the production stores need both ' +
        '(e.g. MONGODB_URL=mongodb://localhost:27017/platform); unset EVENTSTORE_URL to run embedded',
    );
    expect(failure({ MONGODB_URL: MONGO })).toBe(
      'MONGODB_URL is set but EVENTSTORE_URL is missing: the production stores need both ' +
        '(e.g. EVENTSTORE_URL=kurrentdb://localhost:2113?tls=false); unset MONGODB_URL to run embedded',
    );
  });

  it('explains the event store URL schemes this client reads', () => {
    expect(failure({ EVENTSTORE_URL: 'http://localhost:2113', MONGODB_URL: MONGO })).toBe(
      "EVENTSTORE_URL 'http://localhost:2113' must start with kurrentdb://, kurrentdb+discover://, esdb:// or esdb+discover:// " +
        '(e.g. kurrentdb://localhost:2113?tls=false)',
    );
    expect(failure({ EVENTSTORE_URL: 'localhost:2113', MONGODB_URL: MONGO })).toContain('must start with kurrentdb://');
  });

  it.each([
    ['kurrentdb://admin@localhost:2113', 'the client reads credentials only as user:password@'],
    [
      'kurrentdb://admin:pa:ss@localhost:2113',
      'percent-encode them in the user name and password (: as %3A, @ as %40)',
    ],
    ['kurrentdb://admin:p@ss@localhost:2113', 'with no further : or @'],
    [
      'kurrentdb://[::1]:2113?tls=false',
      'the KurrentDB client cannot parse IPv6 addresses; use a host name that resolves to it',
    ],
    ['kurrentdb://localhost:2113?tls=yes', 'tls must be true or false'],
    ['KURRENTDB://localhost:2113', 'must start with kurrentdb://'],
    ['kurrentdb://localhost:2113?nodePreference=nearest', 'nodePreference must be leader'],
    [
      'kurrentdb://localhost:2113?nodePreference=follower',
      'nodePreference must be leader (the service reads back its own appends',
    ],
    ['kurrentdb://localhost:2113?node_preference=read_only_replica', 'node_preference must be leader'],
    ['kurrentdb://localhost:2113?defaultDeadline=5s', 'defaultDeadline must be a whole number'],
    ['kurrentdb://localhost:2113?tlsVerifyCerts=false', 'tlsVerifyCerts is not an option the KurrentDB client knows'],
    ['kurrentdb://localhost:2113?throwOnAppendFailure=false', 'throwOnAppendFailure is set by the service'],
    ['kurrentdb://localhost:2113?tlsCAFile=/nowhere/ca.pem', 'tlsCAFile /nowhere/ca.pem does not exist'],
    // What the client's own parsers refuse: the reason is theirs.
    [
      'kurrentdb://localhost:2113?tls=false&keepAliveInterval=-5',
      'the KurrentDB client cannot parse it (Invalid keepAliveInterval of -5',
    ],
    ['kurrentdb://localhost:2113?tls=false&defaultDeadline=0', 'Invalid defaultDeadline "0"'],
    ['kurrentdb://localhost:2113?tls=false&gossipTimeout=-1', "Invalid format for param 'gossiptimeout'"],
    [
      'kurrentdb://localhost:2113?tls=false&keepAliveInterval=99999999999999999999',
      'number too large to fit in target type',
    ],
    [
      'kurrentdb://localhost:2113?userCertFile=/etc/hostname',
      'userCertFile must be given with accompanying userKeyFile',
    ],
  ])('refuses %s, which the client would misread or refuse, and says why', (url, why) => {
    expect(failure({ EVENTSTORE_URL: url, MONGODB_URL: MONGO })).toContain(why);
  });

  it('never shows a password in what the client says of a URL it refuses', () => {
    const message = failure({
      EVENTSTORE_URL: 'kurrentdb://admin:s3cret@localhost:2113?tls=false&defaultDeadline=0',
      MONGODB_URL: MONGO,
    });
    expect(message).toContain('Invalid defaultDeadline');
    expect(message).not.toMatch(/s3cret|admin/);
  });

  it('never shows a password, even one with an unencoded @', () => {
    const message = failure({ EVENTSTORE_URL: 'kurrentdb://admin:p@ss@localhost:2113', MONGODB_URL: MONGO });
    expect(message).toContain("'kurrentdb://localhost:2113'");
    expect(message).not.toMatch(/ss@|admin/);
  });

  it.each([
    ['mongodb://app:pa:ss@localhost/platform', 'Password contains unescaped characters'],
    ['mongodb://localhost/platform?authSorce=admin', 'option authsorce is not supported'],
    ['mongodb://localhost/platform?maxPoolSize=-1', 'maxPoolSize can only be a positive int value, got: -1'],
    ['mongodb://localhost/platform?tls=yes', 'tls/ssl must be either "true" or "false"'],
    ['mongodb://localhost/platform?readPreference=primaryish', 'Invalid read preference mode "primaryish"'],
    ['mongodb://localhost/platform?compressors=lz9', 'lz9 is not a valid compression mechanism'],
    ['mongodb://localhost/platform?authMechanismProperties=garbage', 'Cannot have undefined values in key value pairs'],
  ])('refuses %s at start-up with the MongoDB driver own reason, not after 30 s of "unreachable"', (url, why) => {
    const message = failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: url });
    expect(message).toContain('the MongoDB driver refuses it');
    expect(message).toContain(why);
    expect(message).not.toContain('pa:ss');
  });

  it.each(['w=1', 'journal=false', 'wtimeoutMS=1'])(
    'refuses %s in the MongoDB URL: the service sets the write concern',
    (option) => {
      expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: `mongodb://localhost/platform?${option}` })).toContain(
        'is set by the service (every write waits for the journal of a majority), not by the URL',
      );
    },
  );

  it.each(['serverSelectionTimeoutMS=5s', 'socketTimeoutMS=0', 'connectTimeoutMS=1000'])(
    'refuses %s in the MongoDB URL: the service sets its time limits, and would ignore it',
    (option) => {
      expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: `mongodb://localhost/platform?${option}` })).toContain(
        'is set by the service (docs/production.md gives its time limits), not by the URL',
      );
    },
  );

  it('refuses a MongoDB URL naming a TLS file that does not exist, which the driver would find only on connecting', () => {
    expect(
      failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb://localhost/platform?tls=true&tlsCAFile=/nowhere/ca.pem' }),
    ).toBe(
      "MONGODB_URL 'mongodb://localhost/platform?tls=true&tlsCAFile=/nowhere/ca.pem': tlsCAFile /nowhere/ca.pem does not exist",
    );
  });

  it('never shows a secret-bearing option of a MongoDB URL it refuses', () => {
    const message = failure({
      EVENTSTORE_URL: ESDB,
      MONGODB_URL: 'mongodb://localhost/platform?authMechanismProperties=AWS_SESSION_TOKEN:s3cr3t&tls=maybe',
    });
    expect(message).toContain('authMechanismProperties=***');
    expect(message).not.toContain('s3cr3t');
  });

  it('rejects an event store URL without a usable host, or with a path', () => {
    expect(failure({ EVENTSTORE_URL: 'esdb://?tls=false', MONGODB_URL: MONGO })).toBe(
      "EVENTSTORE_URL 'esdb://?tls=false' names no host (e.g. kurrentdb://localhost:2113?tls=false)",
    );
    expect(failure({ EVENTSTORE_URL: 'esdb://localhost:99999', MONGODB_URL: MONGO })).toBe(
      "EVENTSTORE_URL 'esdb://localhost:99999': port 99999 is outside 1-65535",
    );
    expect(failure({ EVENTSTORE_URL: 'esdb://localhost:21x3', MONGODB_URL: MONGO })).toBe(
      "EVENTSTORE_URL 'esdb://localhost:21x3': 'localhost:21x3' is not a host[:port]",
    );
    expect(failure({ EVENTSTORE_URL: 'esdb://localhost:2113/streams', MONGODB_URL: MONGO })).toBe(
      "EVENTSTORE_URL 'esdb://localhost:2113/streams' must not have a path (e.g. kurrentdb://localhost:2113?tls=false)",
    );
  });

  it('explains the MongoDB URL schemes', () => {
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'postgres://localhost/platform' })).toBe(
      "MONGODB_URL 'postgres://localhost/platform' must start with mongodb:// or mongodb+srv:// " +
        '(e.g. mongodb://localhost:27017/platform)',
    );
  });

  it('requires the database name in the MongoDB URL path', () => {
    const expected =
      "MONGODB_URL 'mongodb://localhost:27017' must name the database in its path (e.g. mongodb://localhost:27017/platform)";
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb://localhost:27017' })).toBe(expected);
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb://localhost:27017/?replicaSet=rs0' })).toBe(
      "MONGODB_URL 'mongodb://localhost:27017/?replicaSet=rs0' must name the database in its path " +
        '(e.g. mongodb://localhost:27017/platform)',
    );
  });

  it('rejects database names MongoDB would refuse', () => {
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb://localhost/plat.form' })).toBe(
      "MONGODB_URL 'mongodb://localhost/plat.form': 'plat.form' is not a valid MongoDB database name " +
        '(fewer than 64 bytes, none of / \\ . " $ * < > : | ? or space)',
    );
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: `mongodb://localhost/${'d'.repeat(64)}` })).toContain(
      'is not a valid MongoDB database name',
    );
  });

  it('rejects a mongodb+srv URL with a port or several hosts', () => {
    const message =
      "MONGODB_URL 'mongodb+srv://a.example.com:27017/platform': mongodb+srv:// takes exactly one host name and no port";
    expect(failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb+srv://a.example.com:27017/platform' })).toBe(message);
    expect(
      failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb+srv://a.example.com,b.example.com/platform' }),
    ).toContain('takes exactly one host name');
  });

  it('never repeats credentials in its messages', () => {
    const message = failure({ EVENTSTORE_URL: ESDB, MONGODB_URL: 'mongodb://app:s3cret@localhost:27017' });
    expect(message).toContain("'mongodb://localhost:27017'");
    expect(message).not.toContain('s3cret');
    expect(failure({ EVENTSTORE_URL: 'http://admin:changeit@host', MONGODB_URL: MONGO })).not.toContain('changeit');
  });

  it('redacts user and password from URLs', () => {
    expect(redactUrl('mongodb://app:p%40ss@mongo1,mongo2/platform')).toBe('mongodb://mongo1,mongo2/platform');
    expect(redactUrl('esdb://admin:changeit@localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
    expect(redactUrl('esdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
  });
});
