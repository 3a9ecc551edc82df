import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { withOneTrustStore } from '../../src/stores/eventstoredb/trust';
import { KurrentDbStandIn } from '../support/kurrentdb-stand-in';
import { reach } from './support/tls-reach';

/**
 * Issue 32, N3: with tls=true, reads (the client's native bridge) and appends (grpc-js) trust the
 * same certificates, with or without tlsCAFile. The peer is a stand-in speaking TLS with a
 * certificate from a CA made here; it checks client behaviour only, not a KurrentDB server.
 */
let dir: string;
let peer: KurrentDbStandIn;
let ca: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kurrentdb-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=Stand-in test CA',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  );
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'server.ext',
  );
  ca = join(dir, 'ca.pem');
  peer = await KurrentDbStandIn.start({
    tls: { key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.pem')) },
  });
});

afterAll(async () => {
  await peer.close();
  rmSync(dir, { recursive: true, force: true });
});

const url = (options = '') => peer.url(options).replace('127.0.0.1', 'localhost');

/** reach() in a process of its own started with `env`, as a service process reads its trust settings at start. */
async function reachFrom(env: Record<string, string>, how: 'as-given' | 'as-the-service-connects') {
  const child = spawn(
    process.execPath,
    ['-r', './test/support/load-ts.js', join('test', 'reliability', 'support', 'tls-reach.ts'), url(), how],
    {
      cwd: join(__dirname, '..', '..'),
      env: { ...process.env, ...env },
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'exit');
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as unknown;
}

describe('KurrentDB over TLS: one trust store for reads and appends (real client, stand-in peer)', () => {
  it('with tlsCAFile: both trust that CA, and the service leaves the URL as given', async () => {
    const given = url(`tlsCAFile=${ca}`);
    expect(withOneTrustStore(given)).toBe(given);
    expect(await reach(given)).toEqual({ read: 'answered', append: 'answered' });
  });

  it('without tlsCAFile, a CA only the operating system trusts: as the client comes, reads pass and appends fail; as the service connects, both agree', async () => {
    const env = { SSL_CERT_FILE: ca };
    expect(await reachFrom(env, 'as-given')).toEqual({ read: 'answered', append: 'store_unavailable' });
    expect(await reachFrom(env, 'as-the-service-connects')).toEqual({
      read: 'store_unavailable',
      append: 'store_unavailable',
    });
  });

  it('without tlsCAFile, a private CA added the Node way (NODE_EXTRA_CA_CERTS): as the client comes, both fail; as the service connects, both trust it', async () => {
    const env = { NODE_EXTRA_CA_CERTS: ca };
    expect(await reachFrom(env, 'as-given')).toEqual({ read: 'store_unavailable', append: 'store_unavailable' });
    expect(await reachFrom(env, 'as-the-service-connects')).toEqual({ read: 'answered', append: 'answered' });
  });

  it('without tlsCAFile, both trust every CA Node bundles, so a publicly trusted server needs no CA bundle in the image', () => {
    const file = /tlsCAFile=([^&]+)/.exec(withOneTrustStore(url(), {}))?.[1] ?? '';
    const bundle = readFileSync(file, 'utf8');
    expect(rootCertificates.every((certificate) => bundle.includes(certificate))).toBe(true);
  });
});
