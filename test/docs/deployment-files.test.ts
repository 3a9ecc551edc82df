/**
 * The image and the compose file, read as text: Docker cannot run on the build machines, so this
 * checks what they declare, not what a build makes of it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';

const ROOT = join(__dirname, '../..');

/** The Dockerfile's instructions of its last stage (the image that runs), continuation lines joined. */
function runtimeStage(): { instruction: string; args: string }[] {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const instructions = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [instruction = '', ...rest] = line.split(/\s+/);
      return { instruction: instruction.toUpperCase(), args: rest.join(' ') };
    });
  const lastFrom = instructions.map((i) => i.instruction).lastIndexOf('FROM');
  return instructions.slice(lastFrom);
}

describe('the Dockerfile', () => {
  const stage = runtimeStage();

  it('installs tini and the CA bundle in the image that runs', () => {
    const installs = stage.filter((i) => i.instruction === 'RUN' && /apt-get install/.test(i.args)).map((i) => i.args);
    expect(installs.some((run) => /\btini\b/.test(run) && /\bca-certificates\b/.test(run))).toBe(true);
  });

  it('runs the service under tini, so that SIGTERM stops it even during start-up', () => {
    const entrypoints = stage.filter((i) => i.instruction === 'ENTRYPOINT');
    expect(entrypoints).toHaveLength(1);
    expect(JSON.parse(entrypoints[0]!.args)).toEqual(['/usr/bin/tini', '--']);
    const cmd = stage.filter((i) => i.instruction === 'CMD').at(-1);
    expect(JSON.parse(cmd!.args)).toEqual(['node', 'dist/main.js']);
  });

  it("makes the audit key's mount point the node user's, which a named volume mounted there takes on", () => {
    const runs = stage.filter((i) => i.instruction === 'RUN').map((i) => i.args);
    expect(
      runs.some(
        (run) => /mkdir -p [^&]*\/app\/audit-key\b/.test(run) && /chown node:node [^&]*\/app\/audit-key\b/.test(run),
      ),
    ).toBe(true);
    expect(stage.findIndex((i) => i.instruction === 'USER' && i.args === 'node')).toBeGreaterThan(
      stage.findIndex((i) => i.instruction === 'RUN' && /\/app\/audit-key/.test(i.args)),
    );
  });
});

describe('the image on the embedded store (docker run -p 3000:3000 -v platform-data:/data platform-api)', () => {
  const stage = runtimeStage();
  const env = Object.fromEntries(
    stage
      .filter((i) => i.instruction === 'ENV')
      .map((i) => /^([A-Z_]+)=(\S+)$/.exec(i.args))
      .map((m) => [m![1]!, m![2]!]),
  );

  it("passes the Dockerfile language server's validator (dockerfile-utils) without a diagnostic", () => {
    expect(validate(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))).toEqual([]);
  });

  it('keeps its data in the volume /data, owned by the user that runs the service, and exposes 3000', () => {
    expect(env.DATA_DIR).toBe('/data');
    expect(stage.filter((i) => i.instruction === 'VOLUME').map((i) => JSON.parse(i.args) as string[])).toEqual([
      ['/data'],
    ]);
    expect(stage.filter((i) => i.instruction === 'EXPOSE').map((i) => i.args)).toEqual(['3000']);
    const made = stage.findIndex(
      (i) => i.instruction === 'RUN' && /mkdir -p \/data\b/.test(i.args) && /chown node:node \/data\b/.test(i.args),
    );
    expect(made).toBeGreaterThan(-1);
    expect(stage.findIndex((i) => i.instruction === 'USER' && i.args === 'node')).toBeGreaterThan(made);
  });

  it('needs no variable: no store URL (so the embedded store), no key file (so both keys are made in /data)', () => {
    for (const name of [
      'EVENTSTORE_URL',
      'MONGODB_URL',
      'AUDIT_SIGNING_KEY_FILE',
      'WEBHOOK_SECRET_KEY',
      'WEBHOOK_SECRET_KEY_FILE',
    ]) {
      expect(env[name]).toBeUndefined();
    }
  });

  it("starts with the image's command and settings, and makes the store and both keys in its data directory", async () => {
    const cmd = JSON.parse(stage.filter((i) => i.instruction === 'CMD').at(-1)!.args) as string[];
    expect(cmd[0]).toBe('node');
    // The image's /data, here a fresh directory; the port any free one; this checkout stands for /app.
    const dataDir = mkdtempSync(join(tmpdir(), 'image-data-'));
    const child = spawn(process.execPath, cmd.slice(1), {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', METRICS_PORT: 'off' },
    });
    const exited = once(child, 'exit');
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"platform API listening"')) child.kill('SIGTERM');
    });
    const [code] = (await exited) as [number | null];
    expect(stdout).toMatch(/"stores":"embedded"[^\n]*"platform API listening"/);
    expect(code).toBe(0);
    expect(readdirSync(dataDir)).toEqual(
      expect.arrayContaining(['platform.db', 'rate-limits.db', 'audit-signing-key.pem', 'webhook-secret.key']),
    );
  }, 30_000);
});

describe('docker-compose.yml', () => {
  const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
  /** One service's block: from its name at two spaces to the next name at two spaces. */
  const service = (name: string): string => {
    const start = compose.indexOf(`\n  ${name}:\n`);
    const end = compose.slice(start + 1).search(/\n {2}[a-z-]+:\n/);
    return compose.slice(start, end === -1 ? undefined : start + 1 + end);
  };

  it.each(['eventstore', 'mongodb'])('restarts %s unless stopped and publishes its port on 127.0.0.1 only', (name) => {
    const block = service(name);
    expect(block).toMatch(/\n {4}restart: unless-stopped\n/);
    const published = [...block.matchAll(/\n {6}- "([^"]+)"/g)].map((m) => m[1]).filter((p) => /^[\d.:]+$/.test(p!));
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('gives every API instance and the projector the one audit signing key, made once before they start', () => {
    // Both services take the shared settings, volumes and dependencies of x-platform, and override none of them.
    const shared = compose.slice(compose.indexOf('x-platform: &platform'), compose.indexOf('\nservices:\n'));
    for (const name of ['api', 'projector']) {
      expect(service(name)).toMatch(/\n {4}<<: \*platform\n/);
      expect(service(name)).not.toMatch(/\n {4}(volumes|depends_on):/);
      expect(service(name)).toMatch(/\n {6}<<: \*platform-env\n/);
      expect(service(name)).not.toMatch(/AUDIT_SIGNING_KEY_FILE/);
    }
    expect(shared).toMatch(/\n {4}AUDIT_SIGNING_KEY_FILE: \/app\/audit-key\/audit-signing-key\.pem\n/);
    expect(shared).toMatch(/\n {2}volumes:\n {4}- audit-key:\/app\/audit-key\n/);
    expect(shared).toMatch(/\n {4}audit-key:\n {6}condition: service_completed_successfully\n/);
    // The one-shot that creates it, in the same volume, under the same setting; it must not restart.
    const oneShot = service('audit-key');
    expect(oneShot).toMatch(/\n {4}command: \["node", "dist\/cli\.js", "audit", "key", "--create"\]\n/);
    expect(oneShot).toMatch(/\n {6}<<: \*platform-env\n/);
    expect(oneShot).toMatch(/\n {6}- audit-key:\/app\/audit-key\n/);
    expect(oneShot).not.toMatch(/restart: (always|unless-stopped|on-failure)/);
    expect(compose.slice(compose.lastIndexOf('\nvolumes:\n'))).toMatch(/\n {2}audit-key:\n/);
  });

  it('gives every API instance and the projector the one webhook secret key, made once before they start, so nothing needs exporting', () => {
    const shared = compose.slice(compose.indexOf('x-platform: &platform'), compose.indexOf('\nservices:\n'));
    expect(shared).toMatch(/\n {4}WEBHOOK_SECRET_KEY: \$\{WEBHOOK_SECRET_KEY:-\}\n/);
    expect(shared).toMatch(/\n {4}WEBHOOK_SECRET_KEY_FILE: \/app\/webhook-key\/webhook-secret\.key\n/);
    expect(shared).toMatch(/\n {4}- webhook-key:\/app\/webhook-key\n/);
    expect(shared).toMatch(/\n {4}webhook-key:\n {6}condition: service_completed_successfully\n/);
    // No variable is required: `docker compose up` runs as the README says.
    expect(compose).not.toMatch(/\$\{[A-Z_]+:\?/);
    const oneShot = service('webhook-key');
    expect(oneShot).toMatch(/\n {6}- \/app\/webhook-key\/webhook-secret\.key\n/);
    expect(oneShot).toMatch(/flag:'wx',mode:0o600/);
    expect(oneShot).toMatch(/\n {6}- webhook-key:\/app\/webhook-key\n/);
    expect(oneShot).not.toMatch(/restart: (always|unless-stopped|on-failure)/);
    expect(compose.slice(compose.lastIndexOf('\nvolumes:\n'))).toMatch(/\n {2}webhook-key:\n/);
  });

  it('restarts a projector that exits, and marks it unhealthy when its heartbeat file ages', () => {
    const shared = compose.slice(compose.indexOf('x-platform: &platform'), compose.indexOf('\nservices:\n'));
    // Docker restarts a container whose process exited, never one merely unhealthy: the projector exits when it stops beating.
    expect(shared).toMatch(/\n {2}restart: unless-stopped\n/);
    const projector = service('projector');
    expect(projector).toMatch(/\n {4}<<: \*platform\n/);
    expect(projector).not.toMatch(/\n {4}restart:/);
    expect(projector).toMatch(/\n {6}HEARTBEAT_FILE: \/tmp\/projector-heartbeat\n/);
    expect(projector).toMatch(
      /\n {4}healthcheck:\n {6}test: \["CMD", "node", "-e", "[^"]*\/tmp\/projector-heartbeat[^"]*"\]/,
    );
  });

  it('gives MongoDB a root user and the services a URL that carries it', () => {
    expect(service('mongodb')).toMatch(/MONGO_INITDB_ROOT_USERNAME: \$\{MONGODB_USER/);
    expect(service('mongodb')).toMatch(/MONGO_INITDB_ROOT_PASSWORD: \$\{MONGODB_PASSWORD/);
    expect(compose).toMatch(
      /MONGODB_URL: mongodb:\/\/\$\{MONGODB_USER[^}]*\}:\$\{MONGODB_PASSWORD[^}]*\}@mongodb:27017\/platform\?authSource=admin/,
    );
  });
});

describe('the production workflow (.github/workflows/production.yml)', () => {
  const workflow = readFileSync(join(ROOT, '.github/workflows/production.yml'), 'utf8');
  const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
  const failover = readFileSync(join(ROOT, 'test/production/failover.compose.yml'), 'utf8');
  const images = (text: string) =>
    new Set([...text.matchAll(/\bimage: (\S+)/g)].map((m) => m[1]).filter((i) => !i!.startsWith('platform-api')));

  // The compose file's store images; its observability profile (Prometheus, Grafana) is no store.
  const stores = (text: string) => new Set([...images(text)].filter((i) => !/^(prom|grafana)\//.test(i!)));

  it('runs the servers at the tags docker-compose.yml runs, in both jobs', () => {
    expect(stores(compose)).toEqual(new Set(['docker.kurrent.io/kurrent-lts/kurrentdb:26.0.3', 'mongo:7.0.28']));
    expect(images(workflow)).toEqual(stores(compose));
    expect(images(failover)).toEqual(stores(compose));
  });

  it('runs npm run test:production against them, the failover suite, and projector failover by the lease on the replica set', () => {
    expect(workflow).toMatch(/\n {6}- run: npm run test:production\n/);
    expect(workflow).toMatch(/npx jest --runInBand test\/production\/failover\.test\.ts/);
    const failoverJob = workflow.slice(workflow.indexOf('\n  failover:'));
    expect(failoverJob).toMatch(/npx jest --runInBand test\/shared\/projections\/projector-failover\.test\.ts/);
    expect(failoverJob).toMatch(/FAILOVER_LEASE_MS: "10000"/);
  });
});
