import { z } from 'zod';
import { HttpError, Issue } from './envelope';

/** The body of endpoints that take none: an empty JSON object. */
export const emptyBody = z.strictObject({});

// Bodies whose every field is optional and that an older client sends empty or not at all.
const MAY_BE_ABSENT = new WeakSet<z.ZodType>([emptyBody]);

/** A body of optional fields that a request may also leave out, reading as `{}` (as `emptyBody`). */
export function optionalBody<T extends z.ZodType>(body: T): T {
  MAY_BE_ABSENT.add(body);
  return body;
}

/** Whether a request must carry this body: any but `emptyBody` and `optionalBody`s, for which no body reads as `{}`. */
export function bodyIsRequired(body: z.ZodType | undefined): boolean {
  return body !== undefined && !MAY_BE_ABSENT.has(body);
}

/** A 60 kB body can break tens of thousands of rules: the answer lists this many and counts the rest. */
export const LISTED_ISSUES = 20;

/** zod's own wording, but where it only names the problem ("Unrecognized key"): what to do about it. */
function sayingWhatToFix(issue: z.core.$ZodRawIssue): string | undefined {
  // A JSON array as the whole body: valid JSON, so the parser let it through.
  if (issue.code === 'invalid_type' && issue.expected === 'object' && (issue.path ?? []).length === 0) {
    return 'the request body must be a JSON object, {} at least';
  }
  if (issue.code !== 'unrecognized_keys') return undefined;
  const keys = (issue.keys as string[]).map((key) => `"${key}"`).join(', ');
  return `${issue.keys.length > 1 ? 'unknown fields' : 'unknown field'} ${keys}: not taken here, remove ${issue.keys.length > 1 ? 'them' : 'it'}`;
}

/**
 * Parses input with a schema, or refuses with 422 naming the failing fields (the first 20, and how
 * many more). `whole` names the input itself, for a rule about it rather than one field.
 */
export function parse<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  error = 'validation_failed',
  whole: '(body)' | '(query)' | '(path)' = '(body)',
): z.output<Schema> {
  const result = schema.safeParse(input, { error: sayingWhatToFix });
  if (result.success) return result.data;
  const all = result.error.issues;
  const issues: Issue[] = all.slice(0, LISTED_ISSUES).map((issue) => ({
    path: issue.path.map(String).join('.') || whole,
    message: issue.message,
  }));
  const listed = issues.map((i) => (i.path === whole ? i.message : `${i.path}: ${i.message}`)).join('; ');
  const more = all.length - issues.length;
  const summary =
    more > 0 ? `${listed}; and ${more} more issues (the first ${LISTED_ISSUES} of ${all.length} are listed)` : listed;
  throw new HttpError(422, error, summary, issues);
}
