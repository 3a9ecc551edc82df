import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, csrf, isStale, type Refusal, type Schemas } from '../api/client';
import { useLoad } from '../ui/load';
import { Loading, LoadFailed, RefusalNotice } from '../ui/notice';
import { pageRolesFor, withinView, type PageRoles } from './page-roles';
import { PageRolesEditor } from './page-roles-editor';

interface Props {
  addon: Schemas['Addon'];
  mode: 'install' | 'reinstall' | 'access';
  roles: Schemas['RoleGroup'][];
  onDone: (message: string | null) => void;
  /** Refused for the add-on's state (another administrator acted meanwhile): nothing here can change that. */
  onStale: (refusal: Refusal) => void;
}

const TITLE = { install: 'Install', reinstall: 'Reinstall', access: 'Save the access' };
const HEADING = { install: 'Install', reinstall: 'Reinstall', access: 'Access to' };

/**
 * Install, reinstall or the access editor: every page of the add-on with its roles, sent with
 * manage within view. Its heading takes focus as it opens (the button that opened it is gone);
 * Cancel or Escape closes it (`onDone(null)`).
 */
export function AddonRoles({ addon, mode, roles, onDone, onStale }: Props) {
  const [access, reload] = useLoad(
    () => call(() => api.GET('/addons/{key}/access', { params: { path: { key: addon.key } } })),
    [addon.key],
  );
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const id = `${mode}-${addon.key}`;
  return (
    <section
      class="addon-roles"
      aria-labelledby={`${id}-title`}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        onDone(null);
      }}
    >
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1}>
        {HEADING[mode]} {addon.name}
      </h3>
      {access.state === 'loading' && <Loading what="the add-on's pages" />}
      {access.state === 'failed' && <LoadFailed refusal={access.refusal} onRetry={reload} />}
      {access.state === 'ready' && (
        <RolesForm addon={addon} mode={mode} roles={roles} onDone={onDone} onStale={onStale} access={access.data} />
      )}
    </section>
  );
}

function RolesForm({ addon, mode, roles, onDone, onStale, access }: Props & { access: Schemas['AddonAccess'] }) {
  const [edited, setEdited] = useState<PageRoles | null>(null);
  const [keep, setKeep] = useState(true);
  const [showMenu, setShowMenu] = useState(addon.installed ? addon.show_menu : true);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const value = edited ?? pageRolesFor(access.pages, access.page_roles);

  const send = async (event: Event) => {
    event.preventDefault();
    const page_roles = withinView(value);
    const key = addon.key;
    const answer =
      mode === 'access'
        ? await call(async () =>
            api.PUT('/addons/{key}/access', { params: { header: await csrf(), path: { key } }, body: { page_roles } }),
          )
        : await call(async () =>
            api.POST('/addons/{key}/actions/{action}', {
              params: { header: await csrf(), path: { key, action: mode } },
              body: mode === 'reinstall' && keep ? { show_menu: showMenu } : { show_menu: showMenu, page_roles },
            }),
          );
    if (answer.ok) onDone(answer.message);
    else if (isStale(answer.refusal)) onStale(answer.refusal);
    else setRefusal(answer.refusal);
  };

  return (
    <form onSubmit={send}>
      {mode === 'reinstall' && (
        <div class="check">
          <input
            id={`keep-${addon.key}`}
            type="checkbox"
            checked={keep}
            onChange={(e) => setKeep((e.currentTarget as HTMLInputElement).checked)}
          />
          <label for={`keep-${addon.key}`}>Keep the saved page roles</label>
        </div>
      )}
      {!(mode === 'reinstall' && keep) && (
        <PageRolesEditor
          id={`page-roles-${mode}-${addon.key}`}
          pages={access.pages}
          roles={roles}
          value={value}
          onChange={setEdited}
        />
      )}
      {mode !== 'access' && (
        <div class="check">
          <input
            id={`menu-${addon.key}`}
            type="checkbox"
            checked={showMenu}
            onChange={(e) => setShowMenu((e.currentTarget as HTMLInputElement).checked)}
          />
          <label for={`menu-${addon.key}`}>Show in the menu</label>
        </div>
      )}
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary">
        {TITLE[mode]}
      </button>
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
    </form>
  );
}
