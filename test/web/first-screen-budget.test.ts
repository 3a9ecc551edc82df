import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSOLE_DIR } from '../../src/shared/http/console';

// Issue 13: the first screen loads at most 60 kB of gzipped script.
const BUDGET_BYTES = 60 * 1024;

describe('the web console build (npm run build:web)', () => {
  it('loads at most 60 kB of gzipped script on its first screen', () => {
    const index = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
    // What index.html makes the browser fetch before the first screen: the entry and its preloads.
    const scripts = [...index.matchAll(/<script[^>]*\ssrc="\/ui\/([^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="\/ui\/([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((total, file) => total + gzipSync(readFileSync(join(CONSOLE_DIR, file)), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
