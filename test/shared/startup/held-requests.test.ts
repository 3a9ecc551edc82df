import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { heldUntilReady } from '../../../src/shared/startup/held-requests';
import { listenOn, StartupRefusal } from '../../../src/shared/startup/listen';

describe('a request that comes while the service starts', () => {
  it('waits, and is answered by the service once it is ready, in the order requests came', async () => {
    const held = heldUntilReady();
    const server = createServer(held.listener);
    await listenOn(server, 0, '127.0.0.1', 'PORT');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      let settled = false;
      const first = fetch(`${base}/first`).then(async (r) => {
        settled = true;
        return [r.status, await r.text()];
      });
      const second = fetch(`${base}/second`).then(async (r) => [r.status, await r.text()]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      held.ready((req, res) => res.end(`ready: ${req.url}`));
      expect(await first).toEqual([200, 'ready: /first']);
      expect(await second).toEqual([200, 'ready: /second']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('answers 503 not_ready at once beyond the requests it may hold, so a flood while starting holds no memory', async () => {
    const held = heldUntilReady(1);
    const server = createServer(held.listener);
    await listenOn(server, 0, '127.0.0.1', 'PORT');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = fetch(`${base}/first`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const second = await fetch(`${base}/second`);
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('1');
      expect(await second.json()).toEqual({
        code: 503,
        message: 'the service is starting: try again in a moment',
        data: { error: 'not_ready' },
      });
      held.ready((_req, res) => res.end('ready'));
      expect(await (await first).text()).toBe('ready');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('listenOn', () => {
  it('refuses a port in use naming the variable that chose it', async () => {
    const holder = createServer();
    await listenOn(holder, 0, '127.0.0.1', 'PORT');
    const { port } = holder.address() as AddressInfo;
    const second = createServer();
    try {
      const refusal = await listenOn(second, port, '127.0.0.1', 'METRICS_PORT').catch((err: unknown) => err);
      expect(refusal).toBeInstanceOf(StartupRefusal);
      expect((refusal as Error).message).toBe(
        `METRICS_PORT ${port} on 127.0.0.1 is in use by another process: stop that process, or set METRICS_PORT to a free port`,
      );
      expect(second.listening).toBe(false);
    } finally {
      holder.close();
      await once(holder, 'close');
    }
  });
});
