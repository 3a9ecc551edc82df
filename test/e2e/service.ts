/**
 * Playwright's global setup: the compiled service (./compiled-service.ts) every story talks to; its
 * address goes to the tests in E2E_BASE_URL, its data directory in E2E_DATA_DIR for the
 * administration CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { smtpSink } from '../support/mail-sink';
import { startCompiledService } from './compiled-service';

export default async function startService(): Promise<() => Promise<void>> {
  // The service's mail lands in a loopback sink, one JSON file per mail under E2E_MAIL_DIR, where
  // a story reads the links it was mailed (the stories run in other processes than this setup).
  const mailDir = mkdtempSync(join(tmpdir(), 'platform-e2e-mail-'));
  let mailed = 0;
  const sink = await smtpSink((mail) => {
    const to = mail.to && !Array.isArray(mail.to) ? mail.to.text : '';
    writeFileSync(
      join(mailDir, `${String((mailed += 1)).padStart(5, '0')}.json`),
      JSON.stringify({ to, subject: mail.subject, text: mail.text }),
    );
  });
  // Every story registers its members from 127.0.0.1 on this one service: the per-address
  // registration limit (10 an hour) would refuse the later stories, not test them.
  const service = await startCompiledService('127.0.0.1', {
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '1h',
    AUDIT_CHECKPOINT_SECONDS: '1',
    REGISTRATION_LIMIT: '1000',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
  });
  process.env.E2E_BASE_URL = service.base;
  process.env.E2E_DATA_DIR = service.dataDir;
  process.env.E2E_MAIL_DIR = mailDir;
  return async () => {
    await service.stop();
    await new Promise<void>((done) => sink.server.close(() => done()));
    rmSync(mailDir, { recursive: true, force: true });
  };
}
