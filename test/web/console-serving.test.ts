import Koa from 'koa';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { webConsole } from '../../src/shared/http/console';
import { errorEnvelope } from '../../src/shared/http/errors';

function consoleApp(root: string) {
  const app = new Koa();
  app.use(errorEnvelope);
  app.use(webConsole(root));
  app.use((ctx) => {
    ctx.body = { api: true };
  });
  return app.callback();
}

describe('serving the web console', () => {
  const root = mkdtempSync(join(tmpdir(), 'console-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'export {};');
  const app = consoleApp(root);

  it('leaves every other path to the API', async () => {
    expect((await request(app).get('/api/v1/health')).body).toEqual({ api: true });
  });

  it('answers a deep link with index.html, not cached, under the content security policy', async () => {
    const res = await request(app).get('/ui/admin/credentials');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>console</title>');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'.*script-src 'self'/);
  });

  it('refuses an asset this build does not have, in the envelope, instead of answering index.html', async () => {
    const res = await request(app).get('/ui/assets/index-old999.js');
    expect(res.status).toBe(404);
    expect(res.body.data.error).toBe('not_found');
  });

  it('keeps a path that climbs out of the build from reading other files', async () => {
    const res = await request(app).get('/ui/assets/..%2f..%2f..%2fetc%2fpasswd');
    expect(res.text).not.toContain('root:');
  });

  it('refuses writes under /ui/ with 405', async () => {
    const res = await request(app).post('/ui/').send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it('says how to build the console when it was not built', async () => {
    const res = await request(consoleApp(join(root, 'missing'))).get('/ui/');
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('npm run build:web');
  });
});
