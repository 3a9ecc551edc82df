import { z } from 'zod';
import { defineRoleGroup, setRoleGroupEnabled } from './groups';
import { Permission, PERMISSION_DESCRIPTIONS, PERMISSIONS } from './permissions';
import { roleGroupsProjection } from './projections/groups';
import { roleGroupParams } from './params';
import { permissionSchema, roleGroupStandingSchema } from './schemas';
import { DomainError } from '../shared/domain/decider';
import { EventStore } from '../stores/ports';
import { ReadModels, expectWritten } from '../shared/projections/read-models';
import { commandContext } from '../shared/http/command-context';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { adminOf } from '../shared/http/guards';
import { concurrentChange, listOf } from '../shared/http/schemas';
import { decideThenRead } from '../shared/http/read-your-writes';
import { emptyBody } from '../shared/http/validate';

export interface AccessDeps {
  events: EventStore;
  readModels: ReadModels;
}

export const manageAccess = { kind: 'admin', permission: 'access.manage' } as const;

export const asAdmin = (ctx: AppContext) => commandContext(ctx, { kind: 'admin', id: adminOf(ctx).id });

/**
 * A DomainError that is not about the input: the caller may not (403), the addressed resource is
 * missing (404) or its state forbids the change (409). Any other stays a 422.
 */
export async function refusedAs<T>(status: 403 | 404 | 409, errors: string[], decide: () => Promise<T>): Promise<T> {
  try {
    return await decide();
  } catch (err) {
    if (err instanceof DomainError && errors.includes(err.error)) throw new HttpError(status, err.error, err.message);
    throw err;
  }
}

const defineBody = z.strictObject({
  name: z.string().meta({ description: '1 to 64 characters, no control character' }),
  // Any text, so that a name no slice registered is refused with the one stable reason unknown_permission.
  permissions: z.array(z.string()).max(PERMISSIONS.length * 2).meta({ description: `From the registry: ${PERMISSIONS.join(', ')} (GET /permissions)` }),
});

const noGroup = { status: 404, when: 'role_group_not_found: there is no role group with this id' } as const;

/** Role groups from the console (docs/administrators.md): the same commands as `platform roles`. */
export function roleGroupEndpoints(deps: AccessDeps): Endpoint[] {
  const groupAt = async (id: number, position: string | null) => expectWritten(await deps.readModels.after(roleGroupsProjection, String(id), position));
  return [
    endpoint({
      method: 'GET',
      path: '/permissions',
      caller: manageAccess,
      summary: 'Every permission a role group can grant, with what it allows',
      response: listOf(permissionSchema),
      handler: () => ({ data: { list: PERMISSIONS.map((name) => ({ name, description: PERMISSION_DESCRIPTIONS[name] })) } }),
    }),
    endpoint({
      method: 'GET',
      path: '/role-groups',
      caller: manageAccess,
      summary: 'Every role group, enabled or not, with its permissions',
      response: listOf(roleGroupStandingSchema),
      handler: async () => ({ data: { list: (await deps.readModels.allLatest(roleGroupsProjection, {})).sort((a, b) => a.id - b.id) } }),
    }),
    endpoint({
      method: 'POST',
      path: '/role-groups',
      caller: manageAccess,
      summary: 'Define a role group under the next free id, with permissions from the registry; it starts enabled',
      body: defineBody,
      response: roleGroupStandingSchema,
      refusals: [concurrentChange],
      handler: async (ctx, { body }) =>
        decideThenRead(
          ctx,
          // The decider refuses a permission outside the registry (unknown_permission), so the cast only carries the text there.
          () => defineRoleGroup(deps.events, { name: body.name, permissions: body.permissions as Permission[] }, asAdmin(ctx)),
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
        response: roleGroupStandingSchema,
        refusals: [noGroup, concurrentChange],
        handler: async (ctx, { params: { role_id } }) =>
          decideThenRead(
            ctx,
            async () => ({ position: await refusedAs(404, ['role_group_not_found'], () => setRoleGroupEnabled(deps.events, role_id, verb === 'enable', asAdmin(ctx))) }),
            async ({ position }) => ({ data: await groupAt(role_id, position), message: `role group ${role_id} ${verb}d` }),
          ),
      }),
    ),
  ];
}
