import { accessSlice } from './access/slice';
import { ssoSlice } from './access/sso/slice';
import { passkeysSlice } from './access/passkeys/slice';
import { addonSlice } from './addon/slice';
import { auditSlice } from './audit/slice';
import { credentialSlice } from './credential/slice';
import { mailSlice } from './mail/slice';
import { memberSlice } from './member/slice';
import { webhookSlice } from './webhook/slice';
import { approvalRuleSlice } from './approval-rule/slice';
import { useEventCodecs } from './shared/domain/events';
import { declarationsOnly } from './shared/http/declarations-only';
import { Endpoint } from './shared/http/endpoints';
import { Projection } from './shared/projections/projection';
import { Registry, Slice } from './shared/slice';

/**
 * The slices the service is made of, each registering what it owns (src/shared/slice.ts). The
 * API (app.ts), the projector (project.ts) and the CLI all take their read models from here, the
 * API its endpoints, and both the notifiers (notifications.ts).
 */
export const SLICES = [
  memberSlice,
  credentialSlice,
  accessSlice,
  ssoSlice,
  passkeysSlice,
  auditSlice,
  addonSlice,
  webhookSlice,
  mailSlice,
  approvalRuleSlice,
] as const;

/**
 * Every event, permission, scope, webhook event type and event wording the slices registered. The
 * permissions are listed (an enum in the contract, checkboxes in the console) as they always were:
 * the application center's first, then the review, the audit, the webhooks, access last.
 */
export const REGISTRY = new Registry(SLICES as readonly Slice<never, never>[], {
  permissionOrder: ['addon', 'credential', 'audit', 'webhook', 'access'],
});

// Before anything is read or appended: the kernel decodes events with what the slices registered.
useEventCodecs(REGISTRY.events);

/** Every read model of every slice, in one registry. */
export const PROJECTIONS: Projection[] = SLICES.flatMap((slice) => slice.projections);

/** What a slice's endpoints take, as the slice declares it (`Slice<Deps>`). */
type DepsOf<S> = S extends Slice<infer Deps, infer _Notify> ? Deps : never;

/** What each slice's endpoints take, by slice: built by the API's composition (compose-api.ts). */
export interface SliceDependencies {
  member: DepsOf<typeof memberSlice>;
  credential: DepsOf<typeof credentialSlice>;
  access: DepsOf<typeof accessSlice>;
  audit: DepsOf<typeof auditSlice>;
  addon: DepsOf<typeof addonSlice>;
  webhook: DepsOf<typeof webhookSlice>;
  mail: DepsOf<typeof mailSlice>;
  'approval-rule': DepsOf<typeof approvalRuleSlice>;
  sso: DepsOf<typeof ssoSlice>;
  passkeys: DepsOf<typeof passkeysSlice>;
}

/** What the slices take from the registry rather than from a store: what the other slices registered. */
export const REGISTERED = {
  webhookEventTypes: REGISTRY.webhookEventTypes,
  eventTypes: [...REGISTRY.events.keys()],
  describe: (type: string, data: Record<string, unknown>) => REGISTRY.describe(type, data),
  memberStreams: (member: { id: number; username: string }) => REGISTRY.memberStreams(member),
  permissions: REGISTRY.permissions,
  permissionDescriptions: REGISTRY.permissionDescriptions,
  roleGroupScoped: REGISTRY.roleGroupScoped,
};

/** Every slice's endpoints, in the order of SLICES, each checked to name only registered permissions and scopes. */
export function sliceEndpoints(deps: SliceDependencies): Endpoint[] {
  const endpoints = [
    ...memberSlice.endpoints(deps.member),
    ...credentialSlice.endpoints(deps.credential),
    ...accessSlice.endpoints(deps.access),
    ...auditSlice.endpoints(deps.audit),
    ...addonSlice.endpoints(deps.addon),
    ...webhookSlice.endpoints(deps.webhook),
    ...mailSlice.endpoints(deps.mail),
    ...approvalRuleSlice.endpoints(deps['approval-rule']),
    ...ssoSlice.endpoints(deps.sso),
    ...passkeysSlice.endpoints(deps.passkeys),
  ];
  for (const { method, path, caller } of endpoints) {
    const named = caller.kind === 'admin' ? caller.permission : caller.kind === 'partner' ? caller.scope : undefined;
    const known = caller.kind === 'admin' ? REGISTRY.permissions : REGISTRY.scopes;
    if (named !== undefined && !known.includes(named))
      throw new Error(`${method} ${path} names ${named}, which no slice registers`);
  }
  return endpoints;
}

/**
 * The slices' endpoints declared for their contract only, without stores: each slice's
 * dependencies stand in (calling one throws), but for the registry's lists and the settings that
 * bound an input, at their values in `known`.
 */
export function declaredSliceEndpoints(known: { maxKeyLifetimeDays: number }): Endpoint[] {
  const standIn = <T>(slice: string, values: object = {}) =>
    declarationsOnly<T>(`${slice} dependencies`, { ...REGISTERED, ...values });
  return sliceEndpoints({
    member: standIn('member'),
    credential: standIn('credential', known),
    access: standIn('access'),
    audit: standIn('audit'),
    addon: standIn('addon'),
    webhook: standIn('webhook'),
    mail: standIn('mail'),
    'approval-rule': standIn('approval-rule', known),
    sso: standIn('sso'),
    passkeys: standIn('passkeys'),
  });
}
