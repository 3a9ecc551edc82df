import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { parseSchedule } from '../../src/config';
import { approvedMember } from '../support/credentials';
import { logInAdmin, startPlatform, TestPlatform } from '../support/platform';
import { scrape, valueOf } from '../support/metrics';

const API = '/api/v1';
const ATTEMPTS = 'platform_webhook_delivery_attempts_total';

describe('webhook delivery metrics', () => {
  let t: TestPlatform;
  let receiver: Server;
  let answered = 0;

  beforeAll(async () => {
    // 500 to the first delivery, 204 to the next: one failed attempt, then one delivered.
    receiver = createServer((req, res) =>
      req.resume().on('end', () => res.writeHead(answered++ === 0 ? 500 : 204).end()),
    );
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await startPlatform({
      METRICS_PORT: 0,
      WEBHOOK_ALLOW_PRIVATE: true,
      WEBHOOK_RETRY_SCHEDULE: parseSchedule('1s,1s'),
    });
  });
  afterAll(async () => {
    await t.close();
    receiver.close();
  });

  it('count each attempt by outcome', async () => {
    const admin = t.client();
    const token = await logInAdmin(admin);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await admin
      .post(`${API}/webhooks`)
      .set('X-CSRF-Token', token)
      .send({ url, events: ['credential.approved'] })
      .expect(200);
    await approvedMember(t);
    const deadline = Date.now() + 15_000;
    let samples = (await scrape(t)).samples;
    while ((valueOf(samples, ATTEMPTS, { outcome: 'delivered' }) ?? 0) < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      samples = (await scrape(t)).samples;
    }
    expect(valueOf(samples, ATTEMPTS, { outcome: 'failed' })).toBe(1);
    expect(valueOf(samples, ATTEMPTS, { outcome: 'delivered' })).toBe(1);
  });
});
