import { z } from 'zod';
import { Endpoint, isLimitedMemberWrite } from './endpoints';

/**
 * The rate-limit header fields of an answer (docs/rate-limits.md), told of what is counted: a
 * partner's calls, a member's writes, or a client address's attempts (logins, registrations,
 * password-reset requests).
 */
const rateLimitFieldsOf = (counted: string, perWindow: string) => ({
  'RateLimit-Policy': z.string().meta({
    description:
      'draft-ietf-httpapi-ratelimit-headers-10: each limit that counted this request, a Structured Field list member named as the limit, with its quota q per window w in seconds, e.g. "open-api";q=6000;w=60',
  }),
  RateLimit: z.string().meta({
    description: `draft-ietf-httpapi-ratelimit-headers-10: for each limit of RateLimit-Policy, the ${counted.toLowerCase()} left (r) and the seconds until the quota comes back (t), e.g. "open-api";r=5999;t=60`,
  }),
  'RateLimit-Limit': z
    .int()
    .min(1)
    .meta({ description: `draft 06: ${perWindow} per window (the tightest limit)` }),
  'RateLimit-Remaining': z
    .int()
    .min(0)
    .meta({ description: `draft 06: ${counted} left in the current window (the tightest limit)` }),
  'RateLimit-Reset': z.int().min(1).meta({ description: 'draft 06: seconds until the current window ends' }),
});

export type RateLimitFields = ReturnType<typeof rateLimitFieldsOf>;

const partnerCalls = rateLimitFieldsOf('Calls', 'Calls this API id may make');
const memberWrites = rateLimitFieldsOf('Writes', 'Writes this member may make');
const attempts = rateLimitFieldsOf('Attempts', 'Attempts this client address (and username, for a login) may make');
const credentialFailures = rateLimitFieldsOf(
  'Refused calls',
  'Calls refused for their credential this client address may make ("open-api-credential-failures")',
);

/**
 * The fields an endpoint's answers carry, and whether on every answer that follows the count
 * (`always`: the open API's and a member's writes, counted before anything else is judged; a
 * partner's 401 tells `onCredentialRefused`, the client address's refused calls, instead) or
 * only on those a limit counted (a login, a registration or a reset request: a malformed body or a
 * wrong CSRF token is refused before any count); null for an endpoint no limit counts.
 */
export function rateLimitsOf(
  endpoint: Endpoint,
): { fields: RateLimitFields; always: boolean; onCredentialRefused?: RateLimitFields } | null {
  // A 401 of the open API is counted against the client address instead (open-api-limit.ts).
  if (endpoint.caller.kind === 'partner')
    return { fields: partnerCalls, always: true, onCredentialRefused: credentialFailures };
  if (isLimitedMemberWrite(endpoint)) return { fields: memberWrites, always: true };
  if (endpoint.login || endpoint.refusals?.some((refusal) => refusal.status === 429))
    return { fields: attempts, always: false };
  return null;
}
