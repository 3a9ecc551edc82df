import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { passwordSchema } from './shared/password';
import { storesNamed } from './stores/config';
import { signInSettingsSchema } from './config-sso';
import { openApiSettingsSchema } from './config-open-api';
import { number } from './config-number';

/**
 * Service settings from the environment. Store selection (EVENTSTORE_URL, MONGODB_URL, DATA_DIR)
 * is parsed by src/stores/config.ts; everything else the service reads is here.
 */
const boolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

/** A retry schedule setting: a delay list (parseSchedule) in milliseconds. */
const retrySchedule = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      try {
        return parseSchedule(text);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** A delay list such as WEBHOOK_RETRY_SCHEDULE's: `5s,30s,2m,10m,1h,6h` in milliseconds; throws on anything else. */
export function parseSchedule(text: string): number[] {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return text.split(',').map((part) => {
    const match = /^\s*(\d+)(ms|s|m|h)\s*$/.exec(part);
    if (!match) throw new Error(`"${part}" is not a delay such as 5s, 2m or 1h`);
    return Number(match[1]) * units[match[2]!]!;
  });
}

const isDirectory = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

const settingsSchema = z.object({
  PORT: number(0, 65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Unset: Secure when PUBLIC_URL is https (cookieSecure below).
  COOKIE_SECURE: boolean.optional(),
  // Behind one reverse proxy: the client address is the last X-Forwarded-For entry, which the proxy appends.
  TRUST_PROXY: boolean.default(false),
  // Fractions allowed (0.5 = 30 s), for trying expiry out without waiting minutes.
  SESSION_IDLE_MINUTES: number(0.05, 60 * 24 * 30, true).default(120),
  BODY_LIMIT_KB: number(1, 10_240).default(64),
  // Slow clients (docs/security.md): time for the header lines, and the whole request (408 after it);
  // open connections per client address (429 beyond; 0: no cap; behind a proxy all are the proxy's).
  HEADERS_TIMEOUT_MS: number(1000, 600_000).default(10_000),
  REQUEST_TIMEOUT_MS: number(1000, 3_600_000).default(30_000),
  MAX_CONNECTIONS_PER_ADDRESS: number(0, 1_000_000).default(128),
  // The prefix an IPv6 client is counted by in every per-address limit: a subscriber holds a /64 at least.
  IPV6_PREFIX_BITS: number(1, 128).default(64),
  READ_WAIT_MS: number(0, 60_000).default(2000),
  // All the store work of one request, retries included, ends within this (then 503 store_unavailable).
  REQUEST_STORE_BUDGET_MS: number(100, 60_000).default(5000),
  // On SIGTERM, how long requests in flight may take to finish before their connections are cut.
  SHUTDOWN_GRACE_MS: number(0, 600_000).default(10_000),
  // 'off' when a separate `platform project` process keeps the read models up to date.
  PROJECTIONS: z.enum(['inline', 'off'], { error: 'must be inline or off' }).default('inline'),
  // Rebuild read models built by an older projection version at start; false leaves it to `platform upgrade`.
  AUTO_UPGRADE: boolean.default(true),
  // How long after losing the event store an API instance still accepts keys from its in-memory key ring
  // (docs/production.md): a revocation made through another instance goes unseen at most this long.
  KEY_RING_MAX_STALENESS_MS: number(0, 600_000).default(5000),
  // A file the projector touches on each heartbeat while its projections run, for a container health check; empty: none.
  HEARTBEAT_FILE: z
    .string()
    .refine((file) => isDirectory(dirname(file)) && !isDirectory(file), {
      error: 'must be a file in a directory that exists',
    })
    .default(''),
  // How long the projections retry an unreachable store before the process exits for its supervisor to restart it.
  PROJECTION_GIVE_UP_MS: number(1000, 86_400_000).default(300_000),
  // A projector holds the projector lease while it runs, renewing it; another one waiting takes over within this long of its death.
  PROJECTOR_LEASE_MS: number(100, 600_000).default(10_000),
  // Add-on manifests, <ADDONS_DIR>/<key>/addon.json, read at start-up; only a directory named on purpose must exist.
  ADDONS_DIR: z.string().refine(isDirectory, { error: 'not a directory (missing, or a file)' }).default('./addons'),
  // The seeded super administrator `admin`'s password at the first start; random when unset.
  ADMIN_PASSWORD: passwordSchema.optional(),
  // Mail address of that `admin`, for the reviewers' digest; read on the first start only.
  ADMIN_EMAIL: z.email({ error: 'must be an e-mail address such as admin@example.com' }).optional(),
  ...openApiSettingsSchema,
  // Failed logins one username may have from one client address within the window before it is blocked.
  LOGIN_MAX_FAILURES: number(1, 1000).default(5),
  LOGIN_FAILURE_WINDOW_SECONDS: number(1, 86_400).default(900),
  LOGIN_BLOCK_SECONDS: number(1, 86_400).default(900),
  // Failed password checks one client address may have across usernames within the login window (docs/rate-limits.md).
  LOGIN_ADDRESS_MAX_FAILURES: number(1, 100_000).default(20),
  // Password hashes under way or queued for a thread at once; a login or registration beyond them is 503 with Retry-After.
  PASSWORD_CHECKS_IN_FLIGHT: number(1, 1000).default(32),
  // Registrations one client address may make per window.
  REGISTRATION_LIMIT: number(1, 100_000).default(10),
  REGISTRATION_WINDOW_SECONDS: number(1, 86_400).default(3600),
  // Password-reset requests one client address may make, and reset links one member is mailed, per hour (docs/accounts.md).
  PASSWORD_RESET_ADDRESS_LIMIT: number(1, 100_000).default(10),
  PASSWORD_RESET_MEMBER_LIMIT: number(1, 1000).default(3),
  // Self-service writes one member may make a minute (account, password, credential, scopes, rotation, extension): docs/rate-limits.md.
  MEMBER_WRITE_LIMIT: number(1, 100_000).default(30),
  // A session that never signs in is forgotten after this many idle minutes (at most SESSION_IDLE_MINUTES).
  SESSION_ANONYMOUS_MINUTES: number(0.05, 60 * 24, true).default(10),
  // New sessions without a signed-in identity one client address may open in the life of one (anonymousSessionMinutes).
  ANONYMOUS_SESSION_LIMIT: number(1, 1_000_000).default(100),
  // How many days a key lives when its approval names no expiry; unset: keys never expire (docs/notifications.md).
  KEY_LIFETIME_DAYS: number(1, 3650).optional(),
  // How far ahead an approval or an extension may set a key's expiry (422 expiry_too_far beyond it).
  MAX_KEY_LIFETIME_DAYS: number(1, 3650).default(730),
  // Waits between webhook delivery attempts; after the last a delivery is dead (docs/notifications.md).
  WEBHOOK_RETRY_SCHEDULE: retrySchedule('5s,30s,2m,10m,1h,6h'),
  // Keep each credential's last 100 open-API calls in memory for GET /developer/calls (docs/credentials.md).
  RECENT_CALLS: boolean.default(true),
  // Let webhooks point at loopback and private addresses (tests, a receiver on the same network).
  WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  // A key found in public: refused at once, or only told; GitHub's keys from a file, else its URL (docs/credentials.md).
  LEAKED_KEY_ACTION: z.enum(['quarantine', 'notify']).default('quarantine'),
  SECRET_SCANNING_KEYS_FILE: z.string().min(1).optional(),
  SECRET_SCANNING_KEYS_URL: z.url().default('https://api.github.com/meta/public_keys/secret_scanning'),
  // The key that seals each webhook's data key (base64 of 32 bytes); unset: the key file in the data
  // directory, made on first use. Required with the production stores (docs/security.md).
  WEBHOOK_SECRET_KEY: z
    .string()
    .refine((text) => /^[A-Za-z0-9+/_-]+=*$/.test(text) && Buffer.from(text, 'base64').length === 32, {
      error: 'must be 32 random bytes in base64, e.g. from openssl rand -base64 32',
    })
    .optional(),
  // A file holding WEBHOOK_SECRET_KEY (docker-compose.yml's one-shot `webhook-key` makes it once); WEBHOOK_SECRET_KEY wins when both are set.
  WEBHOOK_SECRET_KEY_FILE: z.string().min(1).optional(),
  // Days before a key's expiry its member is reminded, by mail and webhook.
  EXPIRY_REMINDER_DAYS: z
    .string()
    // Digits only, as every number setting: Number() would also read 1e1 and 0x1e.
    .regex(/^\d+(,\d+)*$/, { error: 'must be whole numbers of days in digits, separated by commas, e.g. 30,7,1' })
    .default('30,7,1')
    .transform((text) => text.split(',').map(Number))
    .pipe(
      z
        .array(z.int().min(1).max(3650), { error: 'must be whole numbers of days, e.g. 30,7,1' })
        .min(1)
        .refine((days) => new Set(days).size === days.length, {
          error: 'names a day twice: give each once, e.g. 30,7,1',
        }),
    ),
  // Mail to members about decisions, through this SMTP server; unset: no mail (docs/notifications.md).
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be smtp://user:pass@host:port or smtps://…' }).optional(),
  MAIL_FROM: z.string().min(3).default('platform@localhost'),
  // Waits between attempts at one mail; after the last, or at once on a permanent refusal (SMTP 5xx), it is dead (docs/notifications.md).
  MAIL_RETRY_SCHEDULE: retrySchedule('30s,2m,10m,1h,6h'),
  // Reviewers are mailed at most one digest of new applications and scope requests per this many minutes.
  ADMIN_DIGEST_MINUTES: number(0.01, 1440, true).default(5),
  // At most how often a signed audit checkpoint is appended while events arrive (docs/audit.md).
  AUDIT_CHECKPOINT_SECONDS: number(0.1, 86_400, true).default(60),
  // The Ed25519 key that signs audit checkpoints and export heads; unset: <DATA_DIR>/audit-signing-key.pem, created on first
  // start. Required with the production stores, and never created there (auditSigningKey below).
  AUDIT_SIGNING_KEY_FILE: z.string().min(1).optional(),
  // The name of the audit log in its signed checkpoints and of the key that signs them (C2SP tlog-checkpoint's origin);
  // unset: PUBLIC_URL's host and port followed by /audit.
  AUDIT_LOG_ORIGIN: z
    .string()
    .regex(/^[^\s+]+$/, { error: 'must be one word without white space or +, such as api.example.com/audit' })
    .optional(),
  // Where the console is reached, for the links in mails.
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
  // Operators' metrics and traces (docs/operations.md). GET /metrics in the Prometheus text format on a
  // listener of its own, never on PORT: 'off' serves none, 0 takes any free port.
  METRICS_PORT: z
    .union([z.literal('off'), number(0, 65535)], { error: 'must be a port number, 0 for any free port, or off' })
    .default(9464),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Traces go over OTLP/HTTP to <endpoint>/v1/traces when this is set, nowhere otherwise.
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as http://collector:4318' })
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('platform-api'),
  // Whether a caller's traceparent is the parent of the request's span; otherwise it is only linked (src/observability/tracing.ts).
  OTEL_TRUST_INCOMING_TRACE: boolean.default(false),
  ...signInSettingsSchema,
});

export type Settings = Omit<
  z.infer<typeof settingsSchema>,
  'AUDIT_SIGNING_KEY_FILE' | 'AUDIT_LOG_ORIGIN' | 'COOKIE_SECURE'
> & {
  /** COOKIE_SECURE, or whether PUBLIC_URL is https. */
  COOKIE_SECURE: boolean;
  /** AUDIT_LOG_ORIGIN, or PUBLIC_URL's host and port followed by /audit. */
  AUDIT_LOG_ORIGIN: string;
  /** AUDIT_SIGNING_KEY_FILE, or its place in the data directory. */
  AUDIT_SIGNING_KEY_FILE: string;
  /** Whether a missing key file is created: on the embedded stores only. */
  createAuditSigningKey: boolean;
};

/** How long a session that never signs in lives: SESSION_ANONYMOUS_MINUTES, at most SESSION_IDLE_MINUTES. */
export const anonymousSessionMinutes = (
  settings: Pick<Settings, 'SESSION_ANONYMOUS_MINUTES' | 'SESSION_IDLE_MINUTES'>,
): number => Math.min(settings.SESSION_ANONYMOUS_MINUTES, settings.SESSION_IDLE_MINUTES);

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function parseSettings(env: NodeJS.ProcessEnv): Settings {
  // Empty counts as unset for every setting, as docker compose passes `${VAR:-}`.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = settingsSchema.safeParse(withWebhookKeyFile(given));
  if (parsed.success) {
    const { KEY_LIFETIME_DAYS, MAX_KEY_LIFETIME_DAYS, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } = parsed.data;
    if (HEADERS_TIMEOUT_MS > REQUEST_TIMEOUT_MS) {
      throw new ConfigurationError(
        `invalid configuration: HEADERS_TIMEOUT_MS (${HEADERS_TIMEOUT_MS}) is more than REQUEST_TIMEOUT_MS (${REQUEST_TIMEOUT_MS}), which counts the headers too`,
      );
    }
    if (KEY_LIFETIME_DAYS !== undefined && KEY_LIFETIME_DAYS > MAX_KEY_LIFETIME_DAYS) {
      throw new ConfigurationError(
        `invalid configuration: KEY_LIFETIME_DAYS (${KEY_LIFETIME_DAYS}) is more than MAX_KEY_LIFETIME_DAYS (${MAX_KEY_LIFETIME_DAYS})`,
      );
    }
    const AUDIT_LOG_ORIGIN = parsed.data.AUDIT_LOG_ORIGIN ?? `${new URL(parsed.data.PUBLIC_URL).host}/audit`;
    return {
      ...parsed.data,
      AUDIT_LOG_ORIGIN,
      ...auditSigningKey(env, parsed.data.AUDIT_SIGNING_KEY_FILE),
      COOKIE_SECURE: cookieSecure(parsed.data),
    };
  }
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigurationError(`invalid configuration: ${problems.join('; ')}`);
}

/**
 * WEBHOOK_SECRET_KEY read from WEBHOOK_SECRET_KEY_FILE when only the file is given, then checked
 * as if it had been set: every process of a deployment reads the one key a one-shot wrote.
 */
function withWebhookKeyFile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const file = env.WEBHOOK_SECRET_KEY_FILE;
  if (env.WEBHOOK_SECRET_KEY !== undefined || file === undefined) return env;
  try {
    return { ...env, WEBHOOK_SECRET_KEY: readFileSync(file, 'utf8').trim() };
  } catch (err) {
    throw new ConfigurationError(
      `WEBHOOK_SECRET_KEY_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): create it once, e.g. openssl rand -base64 32 > ${file}`,
    );
  }
}

/**
 * A console reached over https has its session cookie marked Secure unless COOKIE_SECURE=false says
 * otherwise: a deployment that forgot the setting would send the cookie over any plain-http link
 * (an http:// URL typed or injected) to whoever watches the network.
 */
function cookieSecure({ COOKIE_SECURE, PUBLIC_URL }: { COOKIE_SECURE?: boolean; PUBLIC_URL: string }): boolean {
  return COOKIE_SECURE ?? new URL(PUBLIC_URL).protocol === 'https:';
}

/**
 * Where the audit signing key is read, and whether a process may create it. The embedded stores
 * have one process on one data directory: the key is made there on the first start. With the
 * production stores (EVENTSTORE_URL and MONGODB_URL, src/stores/config.ts) every API instance and
 * the projector sign for the one log, so each must read the one key the deployment gives: a
 * process that minted its own would sign with a key no auditor has, lost with its container.
 */
function auditSigningKey(
  env: NodeJS.ProcessEnv,
  given: string | undefined,
): Pick<Settings, 'AUDIT_SIGNING_KEY_FILE' | 'createAuditSigningKey'> {
  const stores = storesNamed(env);
  if (stores.mode === 'embedded')
    return {
      AUDIT_SIGNING_KEY_FILE: given ?? join(stores.dataDir, 'audit-signing-key.pem'),
      createAuditSigningKey: true,
    };
  if (given === undefined) {
    throw new ConfigurationError(
      'set AUDIT_SIGNING_KEY_FILE with the production stores: the one Ed25519 key file (PEM) that every API instance and the projector read, ' +
        'created once with `platform audit key --create` or `openssl genpkey -algorithm ed25519 -out <file>` (docs/production.md)',
    );
  }
  return { AUDIT_SIGNING_KEY_FILE: given, createAuditSigningKey: false };
}
