import { z } from 'zod';
import type { Endpoint } from './endpoints';
import { OpenApiRefusal, RATE_LIMITED } from './open-api-refusals';
import { refusalSchema } from './schemas';

/**
 * The `data.error` reasons of the statuses only the kernel answers, every one of them: the contract
 * lists them as an enum, which generated clients switch on. The contract checker of the tests
 * judges every such answer by it, so a new reason that is not listed here fails them.
 */
const KERNEL_REASONS = {
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  419: ['csrf_token_missing', 'csrf_token_invalid'],
  500: ['internal_error'],
} as const;

type KernelStatus = keyof typeof KERNEL_REASONS;

/** A refusal whose data.error is one of `reasons`. */
const refusalWith = (reasons: readonly [string, ...string[]]) =>
  refusalSchema.extend({
    data: refusalSchema.shape.data.extend({
      error: z.enum(reasons).meta({ description: 'Stable snake_case reason' }),
    }),
  });

const REFUSALS = Object.fromEntries(
  Object.keys(KERNEL_REASONS).map((status) => [
    status,
    refusalWith(KERNEL_REASONS[Number(status) as KernelStatus]).meta({ id: `Refusal${status}` }),
  ]),
);

/** An operation's statuses whose every reason is known ahead: beyond the kernel's own, listed for it alone. */
const reasonsCache = new Map<string, z.ZodType>();

/**
 * The reasons an endpoint can answer with a status, where each of them is declared: a write's 400
 * (only its Idempotency-Key is judged with it), and the open API's 401, 403 and 429, which the
 * slices' partner gate declares (`partnerRefusals`) beside the lane's rate limit.
 */
function declaredReasons(
  endpoint: Endpoint,
  status: number,
  partnerRefusals: readonly OpenApiRefusal[],
): string[] | null {
  if (status === 400 && endpoint.method !== 'GET') return ['idempotency_key_invalid'];
  if (endpoint.caller.kind === 'partner' && (status === 401 || status === 403 || status === 429)) {
    return [...partnerRefusals, RATE_LIMITED].filter((r) => r.status === status).map((r) => r.reason);
  }
  return null;
}

/**
 * The refusal schema of an endpoint's answer with this status: its reasons listed as an enum where
 * every one is known (the kernel's statuses, and those `declaredReasons` knows); else any reason.
 */
export function refusalSchemaOf(
  status: number,
  endpoint?: Endpoint,
  partnerRefusals: readonly OpenApiRefusal[] = [],
): z.ZodType {
  const kernel = REFUSALS[status];
  if (kernel) return kernel;
  const reasons = endpoint ? declaredReasons(endpoint, status, partnerRefusals) : null;
  if (!reasons || reasons.length === 0) return refusalSchema;
  const id = `Refusal${status}_${[...new Set(reasons)].sort().join('_or_')}`;
  let schema = reasonsCache.get(id);
  if (!schema) {
    schema = refusalWith([...new Set(reasons)].sort() as [string, ...string[]]).meta({
      id: id.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
    });
    reasonsCache.set(id, schema);
  }
  return schema;
}
