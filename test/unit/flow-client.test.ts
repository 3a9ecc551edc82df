import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { FlowClient, flowAgent } from '../../bench/flow-client';

/** What the load generator of (d) sends: the service must see a browser's cookies, token and body. */
describe('the bench flow client', () => {
  let server: Server;
  let url: URL;
  const seen: { cookie?: string; token?: string; body: string }[] = [];
  const agent = flowAgent(2);

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += String(chunk)));
      req.on('end', () => {
        seen.push({ cookie: req.headers.cookie, token: req.headers['x-csrf-token'] as string, body });
        // A rolling session renews its cookie; a login would replace the id.
        if (req.url === '/renew') res.setHeader('Set-Cookie', ['koa.sess=renewed; path=/; httponly', 'other=1']);
        res.statusCode = req.url === '/refuse' ? 403 : 200;
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the cookies it was given, the CSRF token and the JSON body, and answers status and body', async () => {
    const client = new FlowClient(url, agent, 'koa.sess=abc; koa.sess.sig=xyz');
    const answer = await client.post('/apply', 'token-1', { scope: 'addons.read' });
    expect(answer).toEqual({ status: 200, body: '{"ok":true}' });
    expect(seen.at(-1)).toEqual({
      cookie: 'koa.sess=abc; koa.sess.sig=xyz',
      token: 'token-1',
      body: '{"scope":"addons.read"}',
    });
  });

  it('keeps what Set-Cookie sends, replacing a cookie of the same name', async () => {
    const client = new FlowClient(url, agent, 'koa.sess=abc; koa.sess.sig=xyz');
    await client.post('/renew', 't');
    await client.post('/next', 't');
    expect(seen.at(-1)!.cookie).toBe('koa.sess=renewed; koa.sess.sig=xyz; other=1');
  });

  it('answers a refusal with its status rather than throwing, and sends no Cookie header when it holds none', async () => {
    const client = new FlowClient(url, agent, '');
    expect((await client.post('/refuse', 't')).status).toBe(403);
    expect(seen.at(-1)!.cookie).toBeUndefined();
  });
});
