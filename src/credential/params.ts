import { z } from 'zod';
import { memberIdParam } from '../shared/http/params';
import { SCOPE_NAMES } from './scopes';

/** A scope as a path parameter: one that is not registered is 422 invalid_path_parameter. */
export const scopeParam = z.enum(SCOPE_NAMES, {
  error: 'scope is not a registered scope: GET /developer/scopes lists them',
});

export const memberScopeParams = z.object({ member_id: memberIdParam, scope: scopeParam });
