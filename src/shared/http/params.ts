import { z } from 'zod';
import { ADDON_ACTIONS } from '../../addon/decider';
import { addonKeySchema } from '../../addon/manifest';
import { SCOPE_NAMES } from '../../credential/scopes';

/** Path parameters (specification §4.2, DESIGN §4); one that breaks its rule is 422 invalid_path_parameter. */
export const memberIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,14}$/, 'member_id must be a positive integer')
  .transform(Number)
  // Read from the path as text, but an integer to a client generated from the contract, as member ids are everywhere else.
  .meta({ description: 'The member whose credential this is', override: { type: 'integer', minimum: 1, maximum: 999_999_999_999_999, pattern: undefined } });

export const scopeParam = z.enum(SCOPE_NAMES, { error: 'scope is not a registered scope: GET /developer/scopes lists them' });

export const memberParams = z.object({ member_id: memberIdParam });

export const memberScopeParams = z.object({ member_id: memberIdParam, scope: scopeParam });

// The rule manifests are checked with, so a key the catalogue holds always passes as a path parameter.
export const addonKeyParam = addonKeySchema;

export const actionParam = z.enum(ADDON_ACTIONS, { error: `unknown action: it is one of ${ADDON_ACTIONS.join(', ')}` });

export const addonParams = z.object({ key: addonKeyParam });

export const addonActionParams = z.object({ key: addonKeyParam, action: actionParam });
