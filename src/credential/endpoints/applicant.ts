import { z } from 'zod';
import { CONTROL_CHARACTERS } from '../../shared/domain/labels';
import { optionalBody } from '../../shared/http/validate';

// Newlines and tabs may shape a purpose; what reorders or hides text may not.
const HIDDEN = new RegExp(`[${CONTROL_CHARACTERS.replace('\\u0000-\\u001f', '\\u0000-\\u0008\\u000b-\\u001f')}]`, 'u');
const SAYS_NOTHING = /^\s*$/u;

const applicantText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} is empty: leave it out, or say it`)
    .max(max, `${field} is at most ${max} characters`)
    .refine((text) => !HIDDEN.test(text) && !SAYS_NOTHING.test(text), `${field} holds characters that cannot be shown`);

/**
 * What an application may say of who asks and why: all optional, so the empty body of the
 * specification (its seed applies with `{}`) still applies.
 */
export const applicationBody = optionalBody(
  z.strictObject({
    purpose: applicantText('purpose', 500)
      .optional()
      .meta({ description: 'What the API will be used for, shown to the reviewers (at most 500 characters)' }),
    company: applicantText('company', 100)
      .optional()
      .meta({ description: 'The company the credential is for (at most 100 characters)' }),
    website: z
      .url({ protocol: /^https?$/, error: 'website must be an http or https URL, e.g. https://example.com' })
      .max(200, 'website is at most 200 characters')
      .optional(),
  }),
);
