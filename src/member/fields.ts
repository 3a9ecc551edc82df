import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, passwordSchema } from '../shared/password';

export { passwordSchema };

/**
 * Field rules of a developer member. ASCII-only usernames keep
 * case-insensitive uniqueness a plain lower-casing, with no Unicode look-alikes to confuse.
 * The password's rule is the kernel's (src/shared/password.ts): administrators and ADMIN_PASSWORD share it.
 */

const absentWhenEmpty = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** absentWhenEmpty for a client generated from the contract: the field's rule, or a blank string. */
const orBlank = (description: string) => ({
  description: `${description}; an empty or blank string counts as not given`,
  override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    const { description: said, ...given } = jsonSchema;
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    Object.assign(jsonSchema, { description: said, anyOf: [given, { type: 'string', pattern: '^\\s*$' }] });
  },
});

/** A username's form: administrators' too (their contract states it, src/access). */
export const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{2,31}$/;

export const usernameSchema = z
  .string({ error: 'username is required and must be a string' })
  .regex(USERNAME_PATTERN, "username must be 3 to 32 characters: a letter, then letters, digits, '_', '.' or '-'");

// Controls (NUL, ESC of terminal sequences, C1), format characters (zero-width, bidirectional
// overrides, soft hyphen) and line or paragraph separators: what reasons may not consist of,
// a nickname, shown to administrators in tables and the console, may not hold at all.
const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const nicknameSchema = z.preprocess(
  absentWhenEmpty,
  z
    .string({ error: 'nickname must be a string' })
    .trim()
    .max(64, 'nickname must be at most 64 characters')
    .refine(
      (nickname) => !UNSHOWABLE.test(nickname),
      'nickname must not hold control or format characters (line breaks, escape sequences, zero-width or bidirectional marks)',
    )
    // The refinement, for a client generated from the contract.
    .meta({ override: { pattern: '^[^\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]*$' } })
    .optional(),
);

export const emailSchema = z
  .preprocess(
    absentWhenEmpty,
    z
      .email({ error: 'email must be an e-mail address such as dev@example.com' })
      .max(254, 'email must be at most 254 characters')
      .optional(),
  )
  .meta(orBlank('An e-mail address'));

const mobileSchema = z
  .preprocess(
    absentWhenEmpty,
    z
      .string({ error: 'mobile must be a string' })
      .regex(/^\+?[1-9][0-9]{5,14}$/, 'mobile must be 6 to 15 digits, optionally after a leading +')
      .optional(),
  )
  .meta(orBlank('A mobile number: 6 to 15 digits, optionally after a leading +'));

const given = (field: 'email' | 'mobile') => ({
  type: 'object',
  required: [field],
  properties: { [field]: { type: 'string', pattern: '\\S' } },
});

function oneOfTwoGiven({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  const object = { ...jsonSchema };
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, { allOf: [object, { anyOf: [given('email'), given('mobile')] }] });
}

/** At least one way to reach the member: the refinement, and the same as JSON Schema for the contract. */
function reachable<T extends z.ZodObject<{ email: typeof emailSchema; mobile: typeof mobileSchema }>>(schema: T) {
  return (
    schema
      .refine((r) => r.email !== undefined || r.mobile !== undefined, {
        message: 'give at least one of email and mobile',
        path: ['email'],
        // Reported together with the other fields' problems, not only once they are fixed.
        when: (payload) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
      })
      // A refinement renders as nothing in JSON Schema: the object, and one of the two given. As allOf,
      // not anyOf beside the properties, which openapi-typescript types as a union with the object.
      .meta({ override: oneOfTwoGiven })
  );
}

const contactFields = { nickname: nicknameSchema, email: emailSchema, mobile: mobileSchema };

export const registrationSchema = reachable(
  z.strictObject({ username: usernameSchema, password: passwordSchema, ...contactFields }),
);

/** What a member may change of their account, by the registration's rules; a new address needs the current password too. */
export const accountChangeSchema = reachable(
  z.strictObject({
    ...contactFields,
    current_password: z
      .string({ error: 'current_password must be a string' })
      .max(PASSWORD_MAX_LENGTH, `current_password must be at most ${PASSWORD_MAX_LENGTH} characters`)
      .optional()
      .meta({ description: 'required when the e-mail address changes' }),
  }),
);

export type AccountChange = z.infer<typeof accountChangeSchema>;

export type Registration = z.infer<typeof registrationSchema>;

export const loginSchema = z.strictObject({
  username: z
    .string({ error: 'username is required and must be a string' })
    .min(1, 'username is required')
    .max(64, 'username must be at most 64 characters'),
  password: z
    .string({ error: 'password is required and must be a string' })
    .min(1, 'password is required')
    .max(PASSWORD_MAX_LENGTH, `password must be at most ${PASSWORD_MAX_LENGTH} characters`),
});

export function normaliseUsername(username: string): string {
  return username.toLowerCase();
}
