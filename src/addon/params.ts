import { z } from 'zod';
import { ADDON_ACTIONS } from './decider';
import { addonKeySchema } from './manifest';

// The rule manifests are checked with, so a key the catalogue holds always passes as a path parameter.
export const addonKeyParam = addonKeySchema;

export const actionParam = z.enum(ADDON_ACTIONS, { error: `unknown action: it is one of ${ADDON_ACTIONS.join(', ')}` });

export const addonParams = z.object({ key: addonKeyParam });

export const addonActionParams = z.object({ key: addonKeyParam, action: actionParam });
