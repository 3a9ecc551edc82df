import { Item, parseList } from 'structured-headers';

/**
 * The rate-limit fields of draft-ietf-httpapi-ratelimit-headers-10 (RateLimit-Policy and
 * RateLimit), parsed by an implementation of Structured Field Values (RFC 9651) the project did not write.
 */
type Limits = Record<string, Record<string, unknown>>;

/** Each member of a Structured Field list: its name (a String) and its parameters. */
export function membersOf(field: unknown): Limits {
  expect(typeof field).toBe('string');
  return Object.fromEntries(
    parseList(field as string).map((member) => {
      const [name, parameters] = member as Item;
      expect(typeof name).toBe('string');
      return [name as string, Object.fromEntries(parameters)];
    }),
  );
}

/** What the answer tells of each limit: its quota and window, what is left and for how long. */
export function standingsOf(res: {
  headers: Record<string, unknown>;
}): Record<string, { q: unknown; w: unknown; r: unknown }> {
  const policies = membersOf(res.headers['ratelimit-policy']);
  const now = membersOf(res.headers['ratelimit']);
  expect(Object.keys(now)).toEqual(Object.keys(policies));
  return Object.fromEntries(
    Object.entries(policies).map(([name, { q, w }]) => {
      const { r, t: seconds } = now[name]!;
      expect(seconds).toEqual(expect.any(Number));
      expect(seconds as number).toBeGreaterThanOrEqual(1);
      expect(seconds as number).toBeLessThanOrEqual(w as number);
      return [name, { q, w, r }];
    }),
  );
}
