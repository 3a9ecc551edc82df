// Times POST /developer/password-reset for a known and an unknown login, alternating, against dist/main.js
// with mail to a loopback sink, and the request sent right after each answer (the work a known login
// causes must not slow it): the answers must be identical, and both times alike (docs/security.md).
// Run: npm run build && node bench/reset-timing.mjs [tries per kind, default 200]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
const sink = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(s, _x, done) {
    s.resume();
    s.on('end', () => done());
  },
});
await new Promise((r) => sink.listen(0, '127.0.0.1', r));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['dist/main.js'], {
  env: {
    ...process.env,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'reset-timing-')),
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: 'x-admin-pass',
    LOG_LEVEL: 'warn',
    METRICS_PORT: 'off',
    SMTP_URL: `smtp://127.0.0.1:${sink.server.address().port}`,
    PASSWORD_RESET_ADDRESS_LIMIT: '100000',
    PASSWORD_RESET_MEMBER_LIMIT: '1000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const ready = () =>
  fetch(`${base}/api/v1/readyz`).then(
    (res) => res.status === 200,
    () => false,
  );
while (!(await ready())) await new Promise((r) => setTimeout(r, 100));
async function session() {
  const res = await fetch(`${base}/api/v1/developer/session`);
  return { cookie: res.headers.get('set-cookie').split(';')[0], csrf: (await res.json()).data.csrf_token };
}
const s = await session();
await fetch(`${base}/api/v1/developer/register`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Cookie: s.cookie, 'X-CSRF-Token': s.csrf },
  body: JSON.stringify({ username: 'timed', password: 'secret1', email: 'timed@example.com' }),
});
const a = await session();
async function ask(login) {
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}/api/v1/developer/password-reset`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: a.cookie, 'X-CSRF-Token': a.csrf },
    body: JSON.stringify({ login }),
  });
  const body = await res.text();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, body, status: res.status };
}
/** The request an attacker sends right after the answer: whatever runs then in the service slows it. */
async function next() {
  const t0 = process.hrtime.bigint();
  await (await fetch(`${base}/api/v1/developer/password-reset`, { headers: { Cookie: a.cookie } })).text();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const tries = Number(process.argv[2] ?? 200);
const times = { known: [], unknown: [] };
const after = { known: [], unknown: [] };
const bodies = new Set();
for (let i = 0; i < tries; i++)
  for (const [kind, login] of [
    ['known', 'timed'],
    ['unknown', `nobody${i}`],
  ]) {
    const r = await ask(login);
    times[kind].push(r.ms);
    bodies.add(`${r.status} ${r.body}`);
    after[kind].push(await next());
    await new Promise((r) => setTimeout(r, 5));
  }
const pct = (xs, p) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) * p)].toFixed(2);
const line = (label, xs) =>
  `${label}: n ${xs.length}, p50 ${pct(xs, 0.5)} ms, p90 ${pct(xs, 0.9)} ms, p99 ${pct(xs, 0.99)} ms\n`;
for (const kind of ['known', 'unknown'])
  process.stdout.write(line(`${kind} answer`, times[kind]) + line(`${kind} next request`, after[kind]));
process.stdout.write(`distinct answers: ${bodies.size}\n`);
child.kill('SIGTERM');
sink.close();
