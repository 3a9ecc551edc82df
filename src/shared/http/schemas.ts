import { z } from 'zod';
import { Refusal } from './endpoints';

/**
 * The response data the service answers, as zod schemas: the OpenAPI document is generated from
 * them and the end-to-end tests check real answers against that document.
 */

/**
 * Schemas built over a list the composition gives (the permissions the slices registered), once per
 * list: the contract names a schema by its id, and every platform a process builds must share it.
 */
export function oncePerList<T>(build: (list: readonly string[]) => T): (list: readonly string[]) => T {
  const built = new Map<string, T>();
  return (list) => {
    const key = list.join(',');
    const schemas = built.get(key) ?? build(list);
    built.set(key, schemas);
    return schemas;
  };
}

export const listOf = <T extends z.ZodType>(item: T) => z.object({ list: z.array(item) });

export const csrfTokenSchema = z.object({ csrf_token: z.string() }).meta({ id: 'CsrfToken' });

/** Every refusal: the status again in `code`, a stable reason in `data.error`, and what to fix in `message`. */
export const refusalSchema = z
  .object({
    code: z.int(),
    message: z.string(),
    data: z.looseObject({
      error: z.string().meta({ description: 'Stable snake_case reason' }),
      issues: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .meta({
          description:
            'A refusal of fields, whatever its reason: each problem, with the field it is about ((body), (query) or (path) for a rule about the whole)',
        }),
      decided_by: z.string().nullable().optional().meta({
        description:
          'A decision refused because its matter was decided meanwhile: the username of the administrator who decided it (null: no longer known)',
      }),
      decided_at: z.iso.datetime().optional().meta({ description: 'With decided_by: when that decision was made' }),
    }),
  })
  .meta({ id: 'Refusal' });

/** The envelope of every JSON answer. */
// `code` is an integer; a zod literal alone would be rendered as a JSON number.
export const envelopeOf = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.literal(0).meta({ type: 'integer' }), message: z.string(), data });

export const wrongPassword: Refusal = {
  status: 401,
  reasons: ['invalid_credentials'],
  when: 'the username or the password is wrong (invalid_credentials)',
};

/** Optimistic concurrency gave up: the aggregate kept changing under simultaneous writers. */
export const concurrentChange: Refusal = {
  status: 409,
  reasons: ['concurrent_modification'],
  when: 'the resource kept changing under simultaneous requests (concurrent_modification): retry',
};
