import type { AdminIdentity } from '../../shared/http/session';
import { DomainError, fold } from '../../shared/domain/decider';
import { CommandContext } from '../../shared/commands/context';
import { handle, loadStream } from '../../shared/commands/handle';
import { allocateId } from '../../shared/commands/ids';
import { ADMIN_IDS } from '../../shared/domain/sequences';
import { EventStore } from '../../stores/ports';
import { usernameSchema } from '../../member';
import { adminStream, AdminStreamEvent } from '../admin';
import { disabledAdmins, fieldRule } from '../admins';
import { listRoleGroups } from '../groups';
import { MappingSettings, placementOf, usernameOf } from './mapping';
import { ssoDecider } from './decider';

/** The role group OIDC_ROLE_GROUPS names, by name: a name no group has is the operator's mistake, told as such. */
async function roleIdNamed(store: EventStore, name: string): Promise<number> {
  const group = (await listRoleGroups(store)).find((g) => g.name === name);
  if (!group) {
    throw new DomainError(
      'sso_role_group_unknown',
      `OIDC_ROLE_GROUPS maps your group to the role group "${name}", which does not exist: ask an administrator to define it or correct the setting`,
    );
  }
  return group.role_id;
}

/**
 * Signs in the person whose ID token openid-client validated: the administrator is created at the
 * first sign-in and placed where the claims say at each one. Decided by `sso`, the actor in `ctx`.
 */
export async function signInFromClaims(
  store: EventStore,
  settings: MappingSettings,
  issuer: string,
  claims: Record<string, unknown>,
  ctx: CommandContext,
): Promise<AdminIdentity & { position: string | null }> {
  const placement = placementOf(claims, settings);
  const role_id = placement.is_super ? null : await roleIdNamed(store, placement.role_group);
  const username = usernameOf(claims);
  fieldRule(usernameSchema, username, 'invalid_username', 'username');
  const stream = adminStream(username);
  const before = fold(ssoDecider, await loadStream<AdminStreamEvent>(store, stream));
  // An id only for a first sign-in; two first sign-ins at once waste one, as two creations would.
  const admin_id = before.admin.status === 'created' ? before.admin.admin_id : await allocateId(store, ADMIN_IDS, ctx);
  const subject = String(claims.sub);
  const command = {
    type: 'SignInThroughSso' as const,
    data: { admin_id, username, issuer, subject, is_super: placement.is_super, role_id },
  };
  const { position, state } = await handle(store, stream, ssoDecider, command, ctx);
  if (state.admin.status !== 'created') throw new Error('the administrator was not created');
  if ((await disabledAdmins(store)).includes(state.admin.admin_id)) {
    throw new DomainError(
      'admin_disabled',
      'this administrator is disabled: a holder of access.manage can enable it again',
    );
  }
  const { admin_id: id, is_super } = state.admin;
  return { id, username: state.admin.username, is_super, role_id: state.admin.role_id, position };
}
