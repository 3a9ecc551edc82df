import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad } from '../ui/load';
import { ConfirmAction } from '../ui/confirm-action';
import { Field } from '../ui/field';
import { bindFields, fixing } from '../ui/field-issues';
import { RefusalNotice, useOutcome } from '../ui/notice';
import { Handover, PasswordOnce } from './password-once';
import { Standing, StandingAction, StandingTable } from './standing';
import { ScreenHeading } from '../ui/screen';
import { Link } from '../ui/link';
import { atTheName, inAccessWords } from './access-refusals';

type Admin = Schemas['AdministratorAccount'];
type Group = Schemas['RoleGroupStanding'];

function standingOf(admin: Admin, groups: Group[]): string {
  if (admin.is_super) return 'super administrator';
  const group = groups.find((g) => g.id === admin.role_id);
  return group ? `${group.name}${group.enabled ? '' : ' (disabled)'}` : `role group ${admin.role_id}`;
}

const permissionsOf = (roleId: number | null, groups: Group[]): string[] =>
  groups.find((g) => g.id === roleId)?.permissions ?? [];

/**
 * Administrators for holders of access.manage: create one in a role group, disable, enable, reset a
 * password. `self`, the signed-in administrator, changes their own password elsewhere and cannot
 * disable themselves (own_account), so their row offers neither. Unless `isSuper`, the rows of super
 * administrators offer nothing either: only a super administrator addresses one (super_admin_only).
 * `held`: the permissions `self` holds, which name what a refusal of the escalation rule is about.
 */
/** How the administrator signs in: through single sign-on or with a password, and the second factors it holds. */
function signInOf({ single_sign_on, second_factors }: Schemas['AdministratorAccount']): string {
  const factors = [
    ...(second_factors.totp ? ['authenticator app'] : []),
    ...(second_factors.passkeys > 0
      ? [second_factors.passkeys === 1 ? '1 passkey' : `${second_factors.passkeys} passkeys`]
      : []),
  ];
  const how = single_sign_on ? 'Single sign-on' : 'Password';
  return factors.length === 0 ? how : `${how}; ${factors.join(', ')}`;
}

export function Administrators({ self, isSuper, held }: { self: number; isSuper: boolean; held: ReadonlySet<string> }) {
  const [admins, reload] = useLoad(() => call(() => api.GET('/administrators')), []);
  const [groups] = useLoad(() => call(() => api.GET('/role-groups')), []);
  const [username, setUsername] = useState('');
  const [roleId, setRoleId] = useState('');
  const [email, setEmail] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const bound = bindFields(refusal, setRefusal);
  const [actionRefusal, setActionRefusal] = useState<Refusal | null>(null);
  const [handover, setHandover] = useState<Handover | null>(null);
  const [outcome, report] = useOutcome();
  const groupList = groups.state === 'ready' ? groups.data.list : [];

  const create = async (event: Event) => {
    event.preventDefault();
    const body = { username, role_group_id: Number(roleId), ...(email.trim() ? { email: email.trim() } : {}) };
    const answer = await call(async () => api.POST('/administrators', { params: { header: await csrf() }, body }));
    if (!answer.ok)
      return setRefusal(
        atTheName(
          inAccessWords(answer.refusal, {
            permissions: permissionsOf(body.role_group_id, groupList),
            held,
            whom: 'its role group',
          }),
        ),
      );
    setRefusal(null);
    setUsername('');
    setEmail('');
    const { password, invitation_sent_to } = answer.data;
    if (password === null)
      report(
        `Created ${answer.data.username}. Invitation mailed to ${invitation_sent_to}: its link lets them choose their password, once, within 72 hours.`,
      );
    else setHandover({ username: answer.data.username, password, why: `Created ${answer.data.username}.` });
    reload();
  };
  const act = async (admin: Admin, action: 'enable' | 'disable' | 'password-reset') => {
    const params = { header: await csrf(), path: { admin_id: admin.id } };
    const refused = (refusal: Refusal) =>
      setActionRefusal(
        inAccessWords(refusal, { permissions: permissionsOf(admin.role_id, groupList), held, whom: admin.username }),
      );
    if (action === 'password-reset') {
      const answer = await call(() => api.POST('/administrators/{admin_id}/password-reset', { params, body: {} }));
      if (!answer.ok) return refused(answer.refusal);
      setActionRefusal(null);
      return setHandover({
        username: admin.username,
        password: answer.data.password,
        why: `Reset the password of ${admin.username}: every session of theirs ended.`,
      });
    }
    const answer = await call(() =>
      action === 'enable'
        ? api.POST('/administrators/{admin_id}/enable', { params, body: {} })
        : api.POST('/administrators/{admin_id}/disable', { params, body: {} }),
    );
    if (!answer.ok) return refused(answer.refusal);
    setActionRefusal(null);
    report(
      action === 'enable'
        ? `Enabled ${admin.username}: they can sign in again.`
        : `Disabled ${admin.username}: every session of theirs ended.`,
    );
    reload();
  };

  if (handover) {
    return (
      <PasswordOnce handover={handover} onStored={() => setHandover(null)}>
        <dt>Username</dt>
        <dd>
          <code>{handover.username}</code>
        </dd>
      </PasswordOnce>
    );
  }
  return (
    <>
      <ScreenHeading>Administrators</ScreenHeading>
      <section aria-labelledby="new-admin" class="card">
        <h2 id="new-admin">Create an administrator</h2>
        <form onSubmit={create}>
          <Field
            {...bound('username', username, setUsername)}
            label="Username"
            required
            hint="A letter, then 2 to 31 letters, digits, _ . or -"
            autocomplete="off"
          />
          <div class="field">
            <label for="field-role_group_id">Role group</label>
            <select
              id="field-role_group_id"
              required
              value={roleId}
              onChange={(e) =>
                fixing(setRoleId, setRefusal, ['role_group_id'])((e.currentTarget as HTMLSelectElement).value)
              }
            >
              <option value="">Choose a role group</option>
              {groupList.map((g) => (
                <option key={g.id} value={String(g.id)}>
                  {g.name}
                  {g.enabled ? '' : ' (disabled)'}: {g.permissions.join(', ') || 'no permissions'}
                </option>
              ))}
            </select>
          </div>
          <Field
            {...bound('email', email, setEmail)}
            label="Email"
            type="email"
            hint="Where the digest of new applications goes, for reviewers; when the service sends mail, the invitation to choose a password goes there instead of a one-time password"
          />
          <RefusalNotice
            refusal={refusal && !refusal.issues.some((i) => ['username', 'email'].includes(i.path)) ? refusal : null}
          />
          <button type="submit" class="primary">
            Create
          </button>
        </form>
      </section>
      <StandingTable
        id="admins-title"
        title="Administrators"
        what="the administrators"
        empty="No administrator."
        columns={['Id', 'Username', 'Role group', 'Email', 'Sign-in', 'Status', '']}
        loaded={admins}
        onRetry={reload}
        outcome={outcome}
        refusal={actionRefusal}
        row={(admin) => (
          <tr key={admin.id}>
            <td data-label="Id">{admin.id}</td>
            <td data-label="Username">{admin.username}</td>
            <td data-label="Role group">{standingOf(admin, groupList)}</td>
            <td data-label="Email">{admin.email ?? '—'}</td>
            <td data-label="Sign-in">{signInOf(admin)}</td>
            <td data-label="Status">
              <Standing enabled={admin.enabled} />
            </td>
            <td data-label="Actions" class="decision">
              {admin.id === self ? (
                <Link to="/admin/account">You: change your password</Link>
              ) : admin.is_super && !isSuper ? (
                <small class="hint">Only a super administrator can disable or reset a super administrator</small>
              ) : (
                <>
                  <StandingAction
                    enabled={admin.enabled}
                    name={admin.username}
                    question={`Disable ${admin.username}? They are refused at sign-in and every session of theirs ends now.`}
                    onTurn={(enable) => void act(admin, enable ? 'enable' : 'disable')}
                  />{' '}
                  <ConfirmAction
                    label="Reset password"
                    name={`Reset the password of ${admin.username}`}
                    title={`Reset the password of ${admin.username}?`}
                    question={`Give ${admin.username} a new one-time password? Their current password stops working and every session of theirs ends.`}
                    onConfirm={() => void act(admin, 'password-reset')}
                  />
                </>
              )}
            </td>
          </tr>
        )}
      />
    </>
  );
}
