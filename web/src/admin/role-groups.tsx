import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad } from '../ui/load';
import { Field } from '../ui/field';
import { bindFields, fixing, isAt } from '../ui/field-issues';
import { Loading, RefusalNotice, useOutcome } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { Standing, StandingAction, StandingTable } from './standing';
import { atTheName, inAccessWords } from './access-refusals';

type Permission = Schemas['Permission']['name'];
type Group = Schemas['RoleGroupStanding'];

/**
 * Role groups for holders of access.manage: define one with permissions from the registry, enable
 * or disable it. `held`: the permissions the signed-in administrator holds, the only ones it grants.
 */
export function RoleGroupsManager({ held }: { held: ReadonlySet<string> }) {
  const [groups, reload] = useLoad(() => call(() => api.GET('/role-groups')), []);
  const [permissions] = useLoad(() => call(() => api.GET('/permissions')), []);
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Permission[]>([]);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [actionRefusal, setActionRefusal] = useState<Refusal | null>(null);
  const [outcome, report] = useOutcome();

  const define = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/role-groups', { params: { header: await csrf() }, body: { name, permissions: chosen } }),
    );
    if (!answer.ok)
      return setRefusal(atTheName(inAccessWords(answer.refusal, { permissions: chosen, held, whom: 'the group' })));
    setRefusal(null);
    setName('');
    setChosen([]);
    report(`Defined the role group ${answer.data.name} (id ${answer.data.id}).`);
    reload();
  };
  const turn = async (group: Group, enable: boolean) => {
    const path = { role_id: group.id };
    const answer = await call(async () =>
      enable
        ? api.POST('/role-groups/{role_id}/enable', { params: { header: await csrf(), path }, body: {} })
        : api.POST('/role-groups/{role_id}/disable', { params: { header: await csrf(), path }, body: {} }),
    );
    if (!answer.ok)
      return setActionRefusal(
        inAccessWords(answer.refusal, { permissions: group.permissions, held, whom: `the role group ${group.name}` }),
      );
    setActionRefusal(null);
    report(
      enable
        ? `Enabled ${group.name}: its administrators hold its permissions again.`
        : `Disabled ${group.name}: its administrators lost its permissions.`,
    );
    reload();
  };
  const choose = fixing(setChosen, setRefusal, ['permissions']);
  const toggle = (p: Permission) => choose(chosen.includes(p) ? chosen.filter((c) => c !== p) : [...chosen, p]);
  const permissionsIssue = refusal?.issues.find((i) => isAt(i.path, 'permissions'));

  return (
    <>
      <ScreenHeading>Role groups</ScreenHeading>
      <section aria-labelledby="new-role-group" class="card">
        <h2 id="new-role-group">Define a role group</h2>
        <form onSubmit={define}>
          <Field
            {...bindFields(refusal, setRefusal)('name', name, setName)}
            label="Name"
            required
            hint="1 to 64 characters"
            maxLength={64}
          />
          <fieldset class="group" aria-describedby={permissionsIssue ? 'role-permissions-issue' : undefined}>
            <legend>Permissions</legend>
            {permissionsIssue && (
              <small id="role-permissions-issue" class="issue">
                {permissionsIssue.message}
              </small>
            )}
            {permissions.state === 'loading' && <Loading what="the permissions" />}
            {permissions.state === 'failed' && <RefusalNotice refusal={permissions.refusal} />}
            {permissions.state === 'ready' &&
              permissions.data.list.map((p) => (
                <label key={p.name} class="check">
                  <input type="checkbox" checked={chosen.includes(p.name)} onChange={() => toggle(p.name)} />
                  <span>
                    {p.description} <code class="permission">{p.name}</code>
                  </span>
                </label>
              ))}
          </fieldset>
          <RefusalNotice refusal={refusal && refusal.issues.length === 0 ? refusal : null} />
          <button type="submit" class="primary">
            Define
          </button>
        </form>
      </section>
      <StandingTable
        id="role-groups-title"
        title="Role groups"
        what="the role groups"
        empty="No role group yet."
        columns={['Id', 'Name', 'Permissions', 'Status', '']}
        loaded={groups}
        onRetry={reload}
        outcome={outcome}
        refusal={actionRefusal}
        row={(group) => (
          <tr key={group.id}>
            <td data-label="Id">{group.id}</td>
            <td data-label="Name">{group.name}</td>
            <td data-label="Permissions">{group.permissions.join(', ') || 'none'}</td>
            <td data-label="Status">
              <Standing enabled={group.enabled} />
            </td>
            <td data-label="Action" class="decision">
              <StandingAction
                enabled={group.enabled}
                name={group.name}
                question={`Disable ${group.name}? Its administrators lose its permissions at their next request.`}
                onTurn={(enable) => void turn(group, enable)}
              />
            </td>
          </tr>
        )}
      />
    </>
  );
}
