import type { Allowance, LimitPolicy } from '../../stores/ports';
import { wholeSeconds } from './too-many-requests';

/** Header fields as [name, value] pairs, in the order they are sent. */
export type HeaderFields = [string, string][];

/** Where a key stands against one limit: the policy, and the allowance its last count gave. */
export type Standing = readonly [LimitPolicy, Allowance];

/**
 * Where a caller stands against every limit that counted its request, told on every answer
 * counted (refusals included), so that a client paces itself before it is refused
 * (docs/rate-limits.md): the fields of draft-ietf-httpapi-ratelimit-headers-10, `RateLimit-Policy`
 * (each policy's quota `q` per window `w`) and `RateLimit` (what remains, `r`, and the seconds
 * until it comes back, `t`), one Structured Field list member per policy, named as the policy;
 * and, for clients of draft 06, `RateLimit-Limit`, `-Remaining` and `-Reset` of the tightest one.
 */
export function rateLimitFields(...standings: Standing[]): HeaderFields {
  const [tightestPolicy, tightest] = standings.reduce((a, b) => (b[1].remaining < a[1].remaining ? b : a));
  return [
    ['RateLimit-Policy', standings.map(([p]) => `"${p.name}";q=${p.points};w=${p.windowSeconds}`).join(', ')],
    ['RateLimit', standings.map(([p, a]) => `"${p.name}";r=${a.remaining};t=${wholeSeconds(a.resetMs)}`).join(', ')],
    ['RateLimit-Limit', String(tightestPolicy.points)],
    ['RateLimit-Remaining', String(tightest.remaining)],
    ['RateLimit-Reset', String(wholeSeconds(tightest.resetMs))],
  ];
}

/** The standings an answer under way tells, by limit: a request two limits count (a member's write and its password check) tells both. */
const told = new WeakMap<object, Map<string, Standing>>();

/**
 * Sets the fields on an answer under way (koa's ctx.set), beside those of the other limits that
 * counted it; a limit told again (its count given back) is told as it stands now.
 */
export function tellStanding(ctx: { set(field: string, value: string): void }, ...standings: Standing[]): void {
  const byLimit = told.get(ctx) ?? new Map<string, Standing>();
  for (const standing of standings) byLimit.set(standing[0].name, standing);
  told.set(ctx, byLimit);
  for (const [name, value] of rateLimitFields(...byLimit.values())) ctx.set(name, value);
}
