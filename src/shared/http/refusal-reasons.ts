import { z } from 'zod';
import { refusalSchema } from './schemas';

/** A refusal whose data.error is one of `reasons`: the whole refusal, with the enum of its reason. */
const refusalWith = (reasons: readonly string[]) =>
  refusalSchema.extend({
    data: refusalSchema.shape.data.extend({
      error: z.enum(reasons as [string, ...string[]]).meta({ description: 'Stable snake_case reason' }),
    }),
  });

/**
 * The same as `refusalWith`, written as the shared Refusal and the enum beside it (allOf): each
 * operation's statuses have their own reasons, and the contract repeats only those.
 */
const reasonsBeside = (reasons: readonly string[]) =>
  z.intersection(
    refusalSchema,
    z.looseObject({ data: z.looseObject({ error: z.enum(reasons as [string, ...string[]]) }) }),
  );

/**
 * The statuses only the kernel answers, always with these reasons: one component each, which every
 * operation answering them references.
 */
const KERNEL_REASONS: Record<number, readonly string[]> = {
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  419: ['csrf_token_missing', 'csrf_token_invalid'],
  500: ['internal_error'],
};

const KERNEL_REFUSALS = new Map(
  Object.entries(KERNEL_REASONS).map(([status, reasons]) => [
    Number(status),
    { key: [...reasons].sort().join(), schema: refusalWith(reasons).meta({ id: `Refusal${status}` }) },
  ]),
);

/** One schema per status and set of reasons: operations that answer the same ones share it. */
const built = new Map<string, z.ZodType>();

/**
 * The refusal schema of an operation's answers with this status: `data.error` one of `reasons`,
 * every one the code answers it with (openapi-refusals.ts), as an enum generated clients switch on
 * and the tests' contract checker judges every answer by. A status reserved for reasons no code
 * answers yet takes any reason.
 */
export function refusalSchemaOf(status: number, reasons: readonly string[]): z.ZodType {
  if (reasons.length === 0) return refusalSchema;
  const sorted = [...new Set(reasons)].sort();
  const kernel = KERNEL_REFUSALS.get(status);
  if (kernel && kernel.key === sorted.join()) return kernel.schema;
  const key = `${status} ${sorted.join()}`;
  let schema = built.get(key);
  if (!schema) {
    schema = reasonsBeside(sorted);
    built.set(key, schema);
  }
  return schema;
}
