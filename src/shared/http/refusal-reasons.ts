import { z } from 'zod';
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

const refusalOf = (status: KernelStatus) =>
  refusalSchema
    .extend({
      data: refusalSchema.shape.data.extend({
        error: z.enum(KERNEL_REASONS[status]).meta({ description: 'Stable snake_case reason' }),
      }),
    })
    .meta({ id: `Refusal${status}` });

const REFUSALS = Object.fromEntries(
  Object.keys(KERNEL_REASONS).map((status) => [status, refusalOf(Number(status) as KernelStatus)]),
);

/** The refusal schema of an answer with this status: its reasons listed where the kernel alone answers it. */
export function refusalSchemaOf(status: number): z.ZodType {
  return REFUSALS[status] ?? refusalSchema;
}
