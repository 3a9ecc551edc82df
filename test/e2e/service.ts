/**
 * Playwright's global setup: the compiled service (dist/main.js, with the console built into
 * web/dist) on a scratch data directory and a free port; its address goes to the tests in
 * E2E_BASE_URL, its data directory in E2E_DATA_DIR for the administration CLI.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { smtpSink } from '../support/mail-sink';
import { freePort, untilHealthy } from '../support/service-process';

export const ADMIN_PASSWORD = 'e2e-admin-password';

export default async function startService(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The service's mail lands in a loopback sink, one JSON file per mail under E2E_MAIL_DIR, where
  // a story reads the links it was mailed (the stories run in other processes than this setup).
  const mailDir = join(dataDir, 'mail');
  mkdirSync(mailDir);
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
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      METRICS_PORT: 'off',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1h',
      AUDIT_CHECKPOINT_SECONDS: '1',
      REGISTRATION_LIMIT: '1000',
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await untilHealthy(base, child);
  process.env.E2E_BASE_URL = base;
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_MAIL_DIR = mailDir;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done(null) : child.once('exit', done)));
    await new Promise<void>((done) => sink.server.close(() => done()));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
