import { postJson, RefusedAddress } from '../../src/webhook/post';
import { isPrivate } from '../../src/webhook/url-policy';
import { expectRefusal, logInAdmin, startPlatform, TestPlatform } from '../support/platform';

/** One address in each range a hostile review found passing, with the range it stands for. */
const RESERVED: [string, string][] = [
  ['::ffff:0:127.0.0.1', 'IPv4-translated ::ffff:0:0:0/96, to loopback'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated ::ffff:0:0:0/96, to a public address'],
  ['fec0::1', 'site-local fec0::/10'],
  ['100::1', 'discard-only 100::/64'],
  ['5f00::1', 'segment routing 5f00::/16'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['198.18.0.1', 'benchmarking 198.18.0.0/15'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['192.88.99.1', '6to4 relay anycast 192.88.99.0/24'],
  ['::8.8.8.8', 'IPv4-compatible ::/96'],
  ['4000::1', 'outside the global unicast 2000::/3'],
];

const url = (address: string) => `http://${address.includes(':') ? `[${address}]` : address}/hook`;

describe('webhook addresses: only globally routable unicast', () => {
  it.each(RESERVED)('refuses %s (%s)', (address) => expect(isPrivate(address)).toBe(true));

  it.each(['93.184.216.34', '::ffff:93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])(
    'lets %s through',
    (address) => expect(isPrivate(address)).toBe(false),
  );

  it.each(RESERVED)('refuses to send to %s (%s) before connecting', async (address) => {
    await expect(postJson(url(address), {}, '{}', { allowPrivate: false, timeoutMs: 1000 })).rejects.toBeInstanceOf(
      RefusedAddress,
    );
  });

  describe('at registration', () => {
    let t: TestPlatform;
    beforeAll(async () => {
      t = await startPlatform({});
    });
    afterAll(() => t.close());

    it.each(RESERVED)('refuses %s (%s) 422 invalid_webhook_url', async (address) => {
      const admin = t.client();
      const token = await logInAdmin(admin);
      await expectRefusal(
        t,
        () =>
          admin
            .post('/api/v1/webhooks')
            .set('X-CSRF-Token', token)
            .send({ url: url(address), events: ['scope.requested'] }),
        422,
        'invalid_webhook_url',
      );
    });
  });
});
