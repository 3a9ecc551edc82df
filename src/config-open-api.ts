import { number } from './config-number';

/** The open API's limits (docs/rate-limits.md): per API id, and per client address on refused credentials. */
export const openApiSettingsSchema = {
  // Open-API calls each API id may make per window (docs/rate-limits.md).
  OPEN_API_RATE_LIMIT: number(1, 1_000_000_000).default(6000),
  OPEN_API_RATE_WINDOW_SECONDS: number(1, 86_400).default(60),
  // Open-API calls refused for their credential (401) one client address may make per window, then 429:
  // generous, so that a partner misconfigured for a minute is told, not shut out for long.
  OPEN_API_CREDENTIAL_FAILURE_LIMIT: number(1, 1_000_000).default(60),
  OPEN_API_CREDENTIAL_FAILURE_WINDOW_SECONDS: number(1, 86_400).default(60),
};
