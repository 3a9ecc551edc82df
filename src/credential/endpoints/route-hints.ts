import { routeHints } from '../../shared/http/route-hints';
import { NextStep } from '../decider';

/** Where a member does what the credential's domain says to do next. */
const ROUTES: Record<NextStep, string> = {
  apply: 'apply with POST /developer/credential',
  claim: 'claim with POST /developer/claim',
  list_scopes: 'GET /developer/scopes lists them',
};

export const withRouteHints = routeHints(ROUTES);
