import { SCOPE_STATUSES, ScopeStatus } from '../../src/credential/scope-lifecycle';
import { applicationSchema } from '../../src/credential/views';

const APPLICATION_STATUSES = applicationSchema.shape.status.options;
type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

function countsOf<S extends string>(statuses: readonly S[], given: Partial<Record<S, number>>): Record<S, number> {
  return Object.fromEntries(statuses.map((status) => [status, given[status] ?? 0])) as Record<S, number>;
}

/**
 * The counts a review queue answers with: one per status the credential slice knows, taken from
 * its schemas, 0 unless given. A test that counts names what it expects, and does not break when
 * the slice adds a status.
 */
export const applicationCounts = (given: Partial<Record<ApplicationStatus, number>>) =>
  countsOf(APPLICATION_STATUSES, given);
export const scopeRequestCounts = (given: Partial<Record<ScopeStatus, number>>) => countsOf(SCOPE_STATUSES, given);
