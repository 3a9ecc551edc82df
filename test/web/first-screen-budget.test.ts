import Koa from 'koa';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { CONSOLE_DIR, webConsole } from '../../src/shared/http/console';

// The first screen loads at most 40 kB of script as the service sends it, compressed at build time.
const BUDGET_BYTES = 40 * 1024;

describe('the web console build (npm run build:web)', () => {
  const app = new Koa().use(webConsole(CONSOLE_DIR)).callback();
  // What index.html makes the browser fetch before the first screen: the entry and its preloads.
  const index = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
  const scripts = [
    ...index.matchAll(/<script[^>]*\ssrc="(\/ui\/[^"]+)"|<link[^>]*rel="modulepreload"[^>]*href="(\/ui\/[^"]+)"/g),
  ].map((m) => m[1] ?? m[2]!);

  async function sentBytes(acceptEncoding: string, expectedEncoding: string): Promise<number> {
    let total = 0;
    for (const path of scripts) {
      const res = await request(app).get(path).set('Accept-Encoding', acceptEncoding);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(expectedEncoding);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      total += Number(res.headers['content-length']);
    }
    return total;
  }

  it('names its first screen scripts in index.html', () => {
    expect(scripts.length).toBeGreaterThan(0);
  });

  it('sends at most 40 kB of brotli script on its first screen to a browser that accepts brotli', async () => {
    expect(await sentBytes('gzip, deflate, br, zstd', 'br')).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('sends at most 40 kB of gzip script on its first screen to a client that accepts gzip only', async () => {
    expect(await sentBytes('gzip', 'gzip')).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
