import type { ParsedUrlQuery } from 'node:querystring';
import { HttpError } from './envelope';
import type { z } from 'zod';

/**
 * Refuses query parameters the endpoint does not declare, as unknown body fields are: ignoring
 * `?status[]=pending` would answer the unfiltered list as if the filter had applied.
 */
export function refuseUnknownQuery(endpoint: { query?: z.ZodObject }, query: ParsedUrlQuery): void {
  const known = Object.keys(endpoint.query?.shape ?? {});
  const unknown = Object.keys(query).filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const takes = known.length > 0 ? `this endpoint takes ${known.join(', ')}` : 'this endpoint takes no query parameter';
  throw new HttpError(
    422,
    'unknown_query_parameter',
    `unknown query parameter${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}: ${takes}`,
    unknown.map((name) => ({ path: name, message: 'not a parameter of this endpoint' })),
  );
}

/** A parameter given twice (`?limit=2&limit=3`) is refused by name, rather than as "received array". */
export function refuseRepeatedQuery(query: ParsedUrlQuery): void {
  const repeated = Object.entries(query).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]));
  if (repeated.length === 0) return;
  throw new HttpError(
    422,
    'validation_failed',
    repeated
      .map(([name, values]) => `the query parameter "${name}" is given ${values.length} times: give it once`)
      .join('; '),
    repeated.map(([name]) => ({ path: name, message: 'given more than once' })),
  );
}
