import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { postJson, RefusedAddress } from '../../src/webhook/post';
import { isPrivate } from '../../src/webhook/url-policy';
import { webhookReceiver, WebhookReceiver } from '../support/webhook-receiver';

let receiver: WebhookReceiver;
let port: number;
beforeAll(async () => {
  receiver = await webhookReceiver(202, { reply: 'ignored' });
  port = Number(new URL(receiver.url).port);
});
afterAll(() => receiver.close());

const options = (allowPrivate: boolean) => ({ allowPrivate, timeoutMs: 2000 });

describe('postJson', () => {
  it("answers the receiver's status and body", async () => {
    expect(
      await postJson(`http://127.0.0.1:${port}/hook`, { 'content-type': 'application/json' }, '{"a":1}', options(true)),
    ).toEqual({ status: 202, body: 'ignored' });
    expect(receiver.received.at(-1)?.body).toBe('{"a":1}');
  });

  it('reads no more than the first 1024 bytes of a body that never ends', async () => {
    const endless = createServer((_req, res) => {
      res.writeHead(200);
      // Writes until the client goes away.
      const more = (): void => void (res.destroyed || res.write('y'.repeat(512), () => setTimeout(more, 5)));
      more();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await postJson(`http://127.0.0.1:${(endless.address() as AddressInfo).port}/`, {}, '{}', {
        allowPrivate: true,
        timeoutMs: 2000,
      });
      expect(answer).toEqual({ status: 200, body: 'y'.repeat(1024) });
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  });

  it('refuses, before sending anything, a private address written in the URL or resolved when connecting', async () => {
    const before = receiver.received.length;
    await expect(postJson(`http://127.0.0.1:${port}/hook`, {}, '{}', options(false))).rejects.toBeInstanceOf(
      RefusedAddress,
    );
    // A name is checked as the connection resolves it, not as it resolved when the webhook was registered.
    await expect(postJson(`http://localhost:${port}/hook`, {}, '{}', options(false))).rejects.toBeInstanceOf(
      RefusedAddress,
    );
    expect(receiver.received.length).toBe(before);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
      await expect(postJson(url, {}, '{}', { allowPrivate: true, timeoutMs: 200 })).rejects.toThrow(
        'no answer within 200 ms',
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('isPrivate', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '192.168.1.1',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '::7f00:1',
    '::',
    '2001::1',
    '2002:7f00:1::',
    '192.0.0.8',
  ])('refuses %s', (address) => expect(isPrivate(address)).toBe(true));
  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])('lets %s through', (address) =>
    expect(isPrivate(address)).toBe(false),
  );
});
