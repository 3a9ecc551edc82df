import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { useLoad } from '../ui/load';
import { Done, Empty, Loading, LoadFailed, RefusalNotice } from '../ui/notice';
import { AddonRoles } from './addon-roles';

type Addon = Schemas['Addon'];
type Action = 'uninstall' | 'enable' | 'disable' | 'menu';

/** The application center: the catalogue with install state, and what this administrator may do to each add-on. */
export function Addons({ canManage, roles }: { canManage: boolean; roles: Schemas['RoleGroup'][] }) {
  const [list, reload] = useLoad(() => call(() => api.GET('/addons')));
  const [done, setDone] = useState('');

  if (list.state === 'loading') return <Loading what="the application center" />;
  if (list.state === 'failed') return <LoadFailed refusal={list.refusal} onRetry={reload} />;
  const changed = (message: string) => {
    setDone(message);
    reload();
  };
  return (
    <>
      <h1>Application center</h1>
      <Done>{done}</Done>
      {list.data.list.length === 0 && <Empty>The catalogue holds no add-on.</Empty>}
      {list.data.list.map((addon) => (
        <AddonCard key={addon.key} addon={addon} canManage={canManage} roles={roles} onChanged={changed} />
      ))}
    </>
  );
}

function AddonCard({ addon, canManage, roles, onChanged }: { addon: Addon; canManage: boolean; roles: Schemas['RoleGroup'][]; onChanged: (message: string) => void }) {
  const [editing, setEditing] = useState<'install' | 'reinstall' | 'access' | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const act = async (action: Action, body = { show_menu: addon.show_menu }) => {
    if (action === 'uninstall' && !confirm(`Uninstall ${addon.name}? Its page roles are dropped.`)) return;
    const answer = await call(async () => api.POST('/addons/{key}/actions/{action}', { params: { header: await csrf(), path: { key: addon.key, action } }, body }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    onChanged(answer.message);
  };
  const state = !addon.installed ? 'not installed' : `installed ${addon.installed_version}, ${addon.enabled ? 'enabled' : 'disabled'}, ${addon.show_menu ? 'in the menu' : 'not in the menu'}`;

  return (
    <article class="card addon" aria-labelledby={`addon-${addon.key}`}>
      <h2 id={`addon-${addon.key}`}>
        {addon.name} <small>{addon.version}</small>
      </h2>
      <p>{addon.description}</p>
      <p>
        <span class={`status ${addon.installed ? (addon.enabled ? 'enabled' : 'disabled') : 'none'}`}>{state}</span> · by {addon.author}
      </p>
      <RefusalNotice refusal={refusal} />
      {canManage && !editing && (
        <div class="actions">
          {!addon.installed && (
            <button type="button" class="primary" onClick={() => setEditing('install')}>
              Install…
            </button>
          )}
          {addon.installed && (
            <>
              <button type="button" onClick={() => setEditing('reinstall')}>
                Reinstall…
              </button>
              <button type="button" onClick={() => setEditing('access')}>
                Access…
              </button>
              <button type="button" onClick={() => act(addon.enabled ? 'disable' : 'enable')}>
                {addon.enabled ? 'Disable' : 'Enable'}
              </button>
              <button type="button" onClick={() => act('menu', { show_menu: !addon.show_menu })}>
                {addon.show_menu ? 'Hide from the menu' : 'Show in the menu'}
              </button>
              <button type="button" class="danger" onClick={() => act('uninstall')}>
                Uninstall…
              </button>
            </>
          )}
        </div>
      )}
      {editing && (
        <AddonRoles
          addon={addon}
          mode={editing}
          roles={roles}
          onDone={(message) => {
            setEditing(null);
            if (message) onChanged(message);
          }}
        />
      )}
      {addon.installed && <PagesYouMayOpen addonKey={addon.key} />}
    </article>
  );
}

/** What this administrator's role group lets it open: how an administrator sees the add-on. */
function PagesYouMayOpen({ addonKey }: { addonKey: string }) {
  const [pages, reload] = useLoad(() => call(() => api.GET('/addons/{key}/pages', { params: { path: { key: addonKey } } })), [addonKey]);
  if (pages.state === 'failed') return <LoadFailed refusal={pages.refusal} onRetry={reload} />;
  if (pages.state !== 'ready') return null;
  return (
    <details>
      <summary>Pages you may open ({pages.data.list.length})</summary>
      {pages.data.list.length === 0 ? (
        <Empty>No page of this add-on is open to you.</Empty>
      ) : (
        <ul>
          {pages.data.list.map((p) => (
            <li key={p.id}>
              {p.title} <small>{p.can_manage ? 'view and manage' : 'view only'}</small>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
