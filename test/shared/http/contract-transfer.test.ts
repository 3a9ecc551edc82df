import type { Response } from 'superagent';
import { expectRefusal } from '../../support/platform';
import { contract, t, useServedContract } from './openapi-contract';
import { logInAdmin } from '../../support/platform';

useServedContract();

/** The body's bytes as they came, undecoded (superagent would inflate gzip itself, and parse JSON). */
const bytes = (res: Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describe('GET /openapi as it travels: compressed, and asked again by its ETag', () => {
  it('sends the document in brotli to a browser that accepts it, 1/20 of its size or less', async () => {
    const admin = t.client();
    await logInAdmin(admin);
    const plain = await admin.get('/api/v1/openapi').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // superagent inflates brotli itself: the document is judged as a client decodes it, its size as it travelled.
    const br = await admin.get('/api/v1/openapi').set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.body).toEqual(contract);
    expect(Number(br.headers['content-length']) * 20).toBeLessThanOrEqual(Number(plain.headers['content-length']));
  });

  it('sends gzip to a client that accepts only gzip, the same document once inflated', async () => {
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin.get('/api/v1/openapi').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toEqual(contract);
  });

  it('answers 304 without the document to an administrator naming its ETag, and 401 to anyone else', async () => {
    const admin = t.client();
    await logInAdmin(admin);
    const first = await admin.get('/api/v1/openapi').expect(200);
    const etag = first.headers.etag as string;
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await admin.get('/api/v1/openapi').set('If-None-Match', etag).buffer(true).parse(bytes);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
    expect((again.body as Buffer).length).toBe(0);
    await admin.get('/api/v1/openapi').set('If-None-Match', '"another"').expect(200);
    await expectRefusal(
      t,
      () => t.client().get('/api/v1/openapi').set('If-None-Match', etag),
      401,
      'admin_not_logged_in',
    );
  });
});
