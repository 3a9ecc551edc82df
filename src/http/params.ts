import { z } from 'zod';
import { SCOPE_NAMES } from '../domain/scopes';

/** Path parameters (specification §4.2, DESIGN §4); one that breaks its rule is 422 invalid_path_parameter. */
export const memberIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, 'member_id must be a positive integer')
  .transform(Number)
  .meta({ description: 'The member whose credential this is' });

export const scopeParam = z.enum(SCOPE_NAMES, { error: 'scope is not a registered scope: GET /developer/scopes lists them' });

export const memberParams = z.object({ member_id: memberIdParam });

export const memberScopeParams = z.object({ member_id: memberIdParam, scope: scopeParam });
