import { z } from 'zod';
import { passwordSchema } from './domain/member-fields';

/**
 * Service settings from the environment. Store selection (EVENTSTORE_URL, MONGODB_URL, DATA_DIR)
 * is parsed by src/stores/config.ts; everything else the service reads is here.
 */
const boolean = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

const settingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  COOKIE_SECURE: boolean.default(false),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(60 * 24 * 30).default(120),
  BODY_LIMIT_KB: z.coerce.number().int().min(1).max(10_240).default(64),
  READ_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  // 'off' when a separate `platform project` process keeps the read models up to date.
  PROJECTIONS: z.enum(['inline', 'off'], { error: 'must be inline or off' }).default('inline'),
  // Rebuild read models built by an older projection version at start; false leaves it to `platform upgrade`.
  AUTO_UPGRADE: boolean.default(true),
  // Where the add-on manifests are: <ADDONS_DIR>/<key>/addon.json, read at start-up.
  ADDONS_DIR: z.string().min(1).default('./addons'),
  // Password of the super administrator `admin` seeded on the first start; random when unset.
  // Empty counts as unset, as docker compose passes `${ADMIN_PASSWORD:-}`.
  ADMIN_PASSWORD: z.preprocess((v) => (v === '' ? undefined : v), passwordSchema.optional()),
});

export type Settings = z.infer<typeof settingsSchema>;

export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

export function parseSettings(env: NodeJS.ProcessEnv): Settings {
  const parsed = settingsSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new ConfigurationError(`invalid configuration: ${problems.join('; ')}`);
}
