import {
  ATTEMPT_OUTCOMES,
  DOCUMENT_STORE_OPERATIONS,
  EVENT_STORE_OPERATIONS,
  STORE_FAILURE_KINDS,
} from '../../src/observability/label-values';
import { logInAdmin, startPlatform, TestPlatform } from '../support/platform';
import { scrape, valueOf } from '../support/metrics';

/**
 * A panel or an alert over a failure counter has data before the first failure: every series of
 * a known label set is exported at 0 from the start, not created on the first increment.
 */
describe('a fresh process, before any failure', () => {
  let t: TestPlatform;
  beforeAll(async () => {
    t = await startPlatform({ METRICS_PORT: 0 });
  });
  afterAll(() => t.close());

  it('exports every store failure series at 0', async () => {
    const { samples } = await scrape(t);
    for (const operation of EVENT_STORE_OPERATIONS) {
      for (const kind of STORE_FAILURE_KINDS)
        expect(valueOf(samples, 'platform_event_store_failures_total', { operation, kind })).toBe(0);
    }
    for (const operation of DOCUMENT_STORE_OPERATIONS) {
      for (const kind of STORE_FAILURE_KINDS)
        expect(valueOf(samples, 'platform_document_store_failures_total', { operation, kind })).toBe(0);
    }
  });

  it('exports the webhook and mail attempts, the dead mails and the read_model_lagging answers at 0', async () => {
    const { samples } = await scrape(t);
    for (const outcome of ATTEMPT_OUTCOMES) {
      expect(valueOf(samples, 'platform_webhook_delivery_attempts_total', { outcome })).toBe(0);
      expect(valueOf(samples, 'platform_mail_attempts_total', { outcome })).toBe(0);
    }
    expect(valueOf(samples, 'platform_mails_total', { outcome: 'failed' })).toBe(0);
    expect(valueOf(samples, 'platform_mails_dead')).toBe(0);
    expect(valueOf(samples, 'platform_read_model_lagging_total')).toBe(0);
    expect(valueOf(samples, 'platform_logins_total', { realm: 'admin', outcome: 'limited' })).toBe(0);
  });

  it("gives the projector's heartbeat age, in the metrics and in /health", async () => {
    const { samples } = await scrape(t);
    expect(valueOf(samples, 'platform_projector_heartbeat_age_seconds')).toBeLessThan(15);
    const admin = t.client();
    await logInAdmin(admin);
    const health = await admin.get('/api/v1/health').expect(200);
    expect(health.body.data.projections.heartbeat_age_ms).toBeGreaterThanOrEqual(0);
    expect(health.body.data.projections.heartbeat_age_ms).toBeLessThan(15_000);
  });
});
