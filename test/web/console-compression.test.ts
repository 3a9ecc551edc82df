import Koa from 'koa';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { webConsole } from '../../src/shared/http/console';
import { errorEnvelope } from '../../src/shared/http/errors';

/** The body as bytes (decoded by the client from the Content-Encoding it got), Accept-Encoding as given. */
function getBytes(app: ReturnType<Koa['callback']>, path: string, acceptEncoding?: string) {
  const req = request(app)
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  // superagent asks for gzip unless told otherwise; "identity" is what a client without compression sends.
  return req.set('Accept-Encoding', acceptEncoding ?? 'identity');
}

describe('the console sends the copies compressed at build time', () => {
  const root = mkdtempSync(join(tmpdir(), 'console-'));
  const script = Buffer.from(`export const words = ${JSON.stringify('platform '.repeat(500))};`);
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), script);
  const brotli = brotliCompressSync(script);
  const gzip = gzipSync(script);
  writeFileSync(join(root, 'assets', 'index-abc123.js.br'), brotli);
  writeFileSync(join(root, 'assets', 'index-abc123.js.gz'), gzip);
  const app = new Koa().use(errorEnvelope).use(webConsole(root)).callback();

  it('sends brotli to a browser that accepts it, and says the answer varies by Accept-Encoding', async () => {
    const res = await getBytes(app, '/ui/assets/index-abc123.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(Number(res.headers['content-length'])).toBe(brotli.length);
    expect((res.body as Buffer).equals(script)).toBe(true);
  });

  it('sends gzip to a client that accepts gzip only', async () => {
    const res = await getBytes(app, '/ui/assets/index-abc123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(Number(res.headers['content-length'])).toBe(gzip.length);
    expect((res.body as Buffer).equals(script)).toBe(true);
  });

  it('sends the file as it is to a client that accepts no compression', async () => {
    const res = await getBytes(app, '/ui/assets/index-abc123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(script.length);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect((res.body as Buffer).equals(script)).toBe(true);
  });

  it('does not serve the compressed copies as files of their own', async () => {
    const res = await request(app).get('/ui/assets/index-abc123.js.br');
    expect(res.status).toBe(404);
    expect(res.body.data.error).toBe('not_found');
  });
});
