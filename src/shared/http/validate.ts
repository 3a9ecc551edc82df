import { z } from 'zod';
import { HttpError, Issue } from './envelope';

/** The body of endpoints that take none: an empty JSON object (specification §4.3.9). */
export const emptyBody = z.strictObject({});

/** Parses input with a schema, or refuses with 422 naming every failing field. */
export function parse<Schema extends z.ZodType>(schema: Schema, input: unknown, error = 'validation_failed'): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issues: Issue[] = result.error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
  const summary = issues.map((i) => (i.path === '(body)' ? i.message : `${i.path}: ${i.message}`)).join('; ');
  throw new HttpError(422, error, summary, issues);
}
