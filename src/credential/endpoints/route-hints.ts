import { DomainError } from '../../shared/domain/decider';
import { NextStep } from '../decider';

/** Where a member does what the credential's domain says to do next. */
const ROUTE: Record<NextStep, string> = {
  apply: 'apply with POST /developer/credential',
  claim: 'claim with POST /developer/claim',
  list_scopes: 'GET /developer/scopes lists them',
};

function isNextStep(next: string | undefined): next is NextStep {
  return next !== undefined && Object.hasOwn(ROUTE, next);
}

/** Runs a member's credential command; a refusal that names a next step also says which route takes it. */
export async function withRouteHints<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof DomainError) || !isNextStep(err.next)) throw err;
    throw new DomainError(err.error, `${err.message} (${ROUTE[err.next]})`, err.next);
  }
}
