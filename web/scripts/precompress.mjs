// Brotli and gzip copies of every text file of the build, made once at build time: the service
// (src/shared/http/console.ts) sends file.br or file.gz by Accept-Encoding and never compresses per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|css|html|svg|json)$/;

/** Every text file under dir, compressed beside itself; a copy that saves nothing is not kept. */
function precompressDir(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) precompressDir(path);
    else if (TEXT.test(entry.name)) precompressFile(path);
  }
}

function precompressFile(path) {
  const body = readFileSync(path);
  const brotli = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gzip = gzipSync(body, { level: 9 });
  if (brotli.length < body.length) writeFileSync(`${path}.br`, brotli);
  if (gzip.length < body.length) writeFileSync(`${path}.gz`, gzip);
}

/** The Vite plugin: runs after the bundle is written to outDir. */
export function precompress() {
  let outDir;
  return {
    name: 'platform-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
