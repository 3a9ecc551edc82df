import { z } from 'zod';
import { defineRoleGroup, setRoleGroupEnabled } from './groups';
import { roleGroupsProjection } from './projections/groups';
import { roleGroupParams } from './params';
import { roleGroupSchemas } from './schemas';
import { Grantor } from './grantor';
import { permissionsHeld } from './permissions';
import { accessReads } from './reads';
import { DomainError } from '../shared/domain/decider';
import { LABEL_PATTERN } from '../shared/domain/labels';
import { EventStore } from '../stores/ports';
import { ReadModels, expectWritten } from '../shared/projections/read-models';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { concurrentChange } from '../shared/http/schemas';
import { pageOf, paginate, wholeListQuery } from '../shared/http/pagination';
import { decideThenRead } from '../shared/http/read-your-writes';
import { emptyBody } from '../shared/http/validate';

export interface AccessDeps {
  events: EventStore;
  readModels: ReadModels;
  /** Every permission the slices registered (REGISTRY.permissions), and what each allows. */
  permissions: readonly string[];
  permissionDescriptions: ReadonlyMap<string, string>;
  /** The permissions held in one's own role group only (Registry.roleGroupScoped). */
  roleGroupScoped: readonly string[];
}

export const manageAccess = { kind: 'admin', permission: 'access.manage' } as const;

export const asAdmin = (ctx: AppContext) => commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id });

/** The session's administrator as a grantor: the permissions its role group gives it now. */
export async function grantorOf(ctx: AppContext, deps: AccessDeps): Promise<Grantor> {
  const admin = adminOf(ctx);
  if (admin.is_super) return { admin_id: admin.id, is_super: true };
  const group = await accessReads(deps.readModels).roleGroup(admin.role_id);
  return {
    admin_id: admin.id,
    is_super: false,
    holds: permissionsHeld(admin, group, deps.permissions),
    role_id: admin.role_id,
    scoped: deps.roleGroupScoped,
  };
}

/** Refused for a permission the caller does not hold (docs/administrators.md, "No escalation"). */
export const notHeld = {
  status: 403,
  reasons: ['permission_not_held'],
  when: 'permission_not_held: the change would grant, or act on an administrator holding, a permission the caller does not hold itself; the message names it',
} as const;

/**
 * A DomainError that is not about the input, answered with the status `statuses` names for its
 * error: the caller may not (403), the addressed resource is missing (404) or its state forbids the
 * change (409). Any other stays a 422.
 */
export async function refusedAs<T>(
  statuses: Readonly<Record<string, 403 | 404 | 409>>,
  decide: () => Promise<T>,
): Promise<T> {
  try {
    return await decide();
  } catch (err) {
    if (err instanceof DomainError && Object.hasOwn(statuses, err.error))
      throw new HttpError(statuses[err.error]!, err.error, err.message);
    throw err;
  }
}

const defineBody = (registered: readonly string[]) =>
  z.strictObject({
    // Any text to the validation, so that the decider answers its own reason (invalid_role_group_name).
    name: z.string().meta({
      description:
        '1 to 64 characters after NFKC normalisation, no control, format or zero-width character; unique as it reads',
      override: { minLength: 1, maxLength: 64, pattern: LABEL_PATTERN },
    }),
    // Any text, so that a name no slice registered is refused with the one stable reason
    // unknown_permission, and one named twice duplicate_permission; the registry's names to the contract.
    permissions: z
      .array(z.string().meta({ override: { enum: [...registered] } }))
      .max(registered.length * 2)
      .meta({
        description: `From the registry: ${registered.join(', ')} (GET /permissions)`,
        override: { uniqueItems: true },
      }),
  });

const nameTaken = {
  status: 409,
  reasons: ['role_group_name_taken'],
  when: 'role_group_name_taken: another role group has this name, or one that reads like it (UTS #39 confusables, case aside)',
} as const;
const noGroup = {
  status: 404,
  reasons: ['role_group_not_found'],
  when: 'role_group_not_found: there is no role group with this id',
} as const;

/** Role groups from the console (docs/administrators.md): the same commands as `platform roles`. */
export function roleGroupEndpoints(deps: AccessDeps): Endpoint[] {
  const groupAt = async (id: number, position: string | null) =>
    expectWritten(await deps.readModels.after(roleGroupsProjection, String(id), position));
  const { permissions: registered, permissionDescriptions } = deps;
  const schemas = roleGroupSchemas(registered);
  return [
    endpoint({
      method: 'GET',
      path: '/permissions',
      caller: manageAccess,
      summary: 'Every permission a role group can grant, with what it allows, in the order the slices register them',
      query: z.object(wholeListQuery),
      response: pageOf(schemas.permissionListed),
      handler: (_ctx, { query }) => ({
        data: paginate(
          [...permissionDescriptions].map(([name, description]) => ({ name, description })),
          ({ name }) => [[...permissionDescriptions.keys()].indexOf(name), name],
          query,
        ),
      }),
    }),
    endpoint({
      method: 'GET',
      path: '/role-groups',
      caller: manageAccess,
      summary: 'Every role group, enabled or not, with its permissions, in the order of their ids',
      query: z.object(wholeListQuery),
      response: pageOf(schemas.roleGroupStanding),
      handler: async (_ctx, { query }) => ({
        data: paginate(await deps.readModels.allLatest(roleGroupsProjection, {}), (group) => [group.id, ''], query),
      }),
    }),
    endpoint({
      method: 'POST',
      path: '/role-groups',
      caller: manageAccess,
      summary: 'Define a role group under the next free id, with permissions from the registry; it starts enabled',
      body: defineBody(registered),
      response: schemas.roleGroupStanding,
      refusals: [
        notHeld,
        nameTaken,
        {
          status: 422,
          reasons: ['invalid_role_group_name', 'unknown_permission', 'duplicate_permission'],
          when: 'the name or the permissions break their rule; data.issues names the field',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body }) =>
        decideThenRead(
          ctx,
          // The decider refuses a permission outside the registry (unknown_permission), or one the caller does not hold.
          async () => {
            const authority = { registered, by: await grantorOf(ctx, deps) };
            return refusedAs({ permission_not_held: 403, role_group_name_taken: 409 }, () =>
              defineRoleGroup(deps.events, { name: body.name, permissions: body.permissions }, authority, asAdmin(ctx)),
            );
          },
          async ({ id, position }) => ({ data: await groupAt(id, position), message: `role group ${id} defined` }),
        ),
    }),
    ...(['enable', 'disable'] as const).map((verb) =>
      endpoint({
        method: 'POST',
        path: `/role-groups/:role_id/${verb}`,
        caller: manageAccess,
        summary:
          verb === 'enable'
            ? 'Enable a role group: its administrators hold its permissions again'
            : 'Disable a role group: its administrators lose its permissions at their next request',
        params: roleGroupParams,
        body: emptyBody,
        response: schemas.roleGroupStanding,
        refusals: [
          noGroup,
          notHeld,
          { status: 422, reasons: [`role_group_already_${verb}d`], when: `the role group is ${verb}d already` },
          concurrentChange,
        ],
        handler: async (ctx, { params: { role_id } }) =>
          decideThenRead(
            ctx,
            async () => {
              const by = await grantorOf(ctx, deps);
              return {
                position: await refusedAs({ role_group_not_found: 404, permission_not_held: 403 }, () =>
                  setRoleGroupEnabled(deps.events, role_id, verb === 'enable', by, asAdmin(ctx)),
                ),
              };
            },
            async ({ position }) => ({
              data: await groupAt(role_id, position),
              message: `role group ${role_id} ${verb}d`,
            }),
          ),
      }),
    ),
  ];
}
