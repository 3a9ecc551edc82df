import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';

/**
 * The KurrentDB client verifies the server on two paths with two trust stores when the URL names
 * no tlsCAFile: appends and subscriptions (grpc-js) trust the CAs bundled with Node, reads (the
 * native bridge) the operating system's, which a slim image lacks, so reads failed against a
 * publicly trusted server while appends worked. Given a tlsCAFile, both paths trust that file and
 * only it. So without one, the service writes one file for both: Node's bundled CAs and those
 * of NODE_EXTRA_CA_CERTS, Node's documented way to add a private CA.
 */
export function withOneTrustStore(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
  const options = new Map(
    [...new URLSearchParams(query)].map(([key, value]) => [key.toLowerCase().replace(/[_-]/g, ''), value]),
  );
  if (
    options.get('tls')?.toLowerCase() === 'false' ||
    options.has('tlscafile') ||
    options.get('tlsverifycert')?.toLowerCase() === 'false'
  )
    return url;
  const extra = env.NODE_EXTRA_CA_CERTS ? [readFileSync(env.NODE_EXTRA_CA_CERTS, 'utf8')] : [];
  const bundle = [...rootCertificates, ...extra].join('\n');
  const file = join(
    tmpdir(),
    `platform-kurrentdb-ca-${createHash('sha256').update(bundle).digest('hex').slice(0, 16)}.pem`,
  );
  writeFileSync(file, bundle, { mode: 0o644 });
  return `${url}${query === '' ? (url.endsWith('?') ? '' : '?') : '&'}tlsCAFile=${file}`;
}
