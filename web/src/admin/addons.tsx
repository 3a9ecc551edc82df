import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, csrf, isStale, type Refusal, type Schemas } from '../api/client';
import { pathFor } from '../router';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { useConfirm } from '../ui/confirm-action';
import { Done, Empty, Loading, LoadFailed, RefusalNotice, useOutcome } from '../ui/notice';
import { AddonRoles } from './addon-roles';
import { ScreenHeading } from '../ui/screen';

type Addon = Schemas['Addon'];
type Action = 'uninstall' | 'enable' | 'disable' | 'menu';
type Editing = 'install' | 'reinstall' | 'access';

/** An add-on has an address of its own, to reload or to pass on. */
export const ADDON = '/admin/addons/:key';

/**
 * The application center: the catalogue with install state, and what this administrator may do to
 * each add-on; with `only`, the add-on of that key alone.
 */
export function Addons({
  canManage,
  roles,
  only,
}: {
  canManage: boolean;
  roles: Schemas['RoleGroup'][];
  only?: string;
}) {
  const [list, reload] = useLoad(() => call(() => api.GET('/addons')));

  if (list.state === 'loading') return <Loading what="the application center" />;
  if (list.state === 'failed') return <LoadFailed refusal={list.refusal} onRetry={reload} />;
  const shown = only === undefined ? list.data.list : list.data.list.filter((addon) => addon.key === only);
  return (
    <>
      <ScreenHeading>Application center</ScreenHeading>
      {only !== undefined && (
        <p>
          <Link to="/admin/addons">Every add-on</Link>
        </p>
      )}
      {shown.length === 0 && (
        <Empty>
          {only === undefined
            ? 'The catalogue holds no add-on.'
            : `The catalogue holds no add-on with the key "${only}".`}
        </Empty>
      )}
      {shown.map((addon) => (
        <AddonCard key={addon.key} addon={addon} canManage={canManage} roles={roles} onChanged={reload} />
      ))}
    </>
  );
}

/** "installed 1.2.0, enabled, in the menu": the add-on's state as the card says it. */
function stateInWords(addon: Addon): string {
  if (!addon.installed) return 'not installed';
  return `installed ${addon.installed_version}, ${addon.enabled ? 'enabled' : 'disabled'}, ${addon.show_menu ? 'in the menu' : 'not in the menu'}`;
}

/** The status badge's colour. */
function statusClass(addon: Addon): 'enabled' | 'disabled' | 'none' {
  if (!addon.installed) return 'none';
  return addon.enabled ? 'enabled' : 'disabled';
}

/**
 * One add-on and what may be done to it. The outcome of an action is said in the card and takes
 * focus (the button that acted is often gone); a cancelled editor gives focus back to its opener.
 */
function AddonCard({
  addon,
  canManage,
  roles,
  onChanged,
}: {
  addon: Addon;
  canManage: boolean;
  roles: Schemas['RoleGroup'][];
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [outcome, report, clear] = useOutcome();
  const [ask, dialog] = useConfirm();
  /** Counts the changes made here: what this administrator may open is read again after each. */
  const [changes, setChanges] = useState(0);
  const openers = useRef<Partial<Record<Editing, HTMLButtonElement | null>>>({});
  const cancelled = useRef<Editing | null>(null);
  useEffect(() => {
    if (editing || !cancelled.current) return;
    openers.current[cancelled.current]?.focus();
    cancelled.current = null;
  }, [editing]);

  /** The add-on and the pages this administrator may open are read again. */
  const readAgain = () => {
    setChanges((n) => n + 1);
    onChanged();
  };
  // The service's message names the add-on already.
  const changed = (message: string) => {
    setRefusal(null);
    report(message);
    readAgain();
  };
  const refused = (refusal: Refusal) => {
    clear();
    setRefusal(refusal);
    // Refused for its state (another administrator acted meanwhile): the card shows what is true now.
    if (isStale(refusal)) readAgain();
  };
  const act = async (action: Action, body = { show_menu: addon.show_menu }) => {
    if (
      action === 'uninstall' &&
      !(await ask({
        title: `Uninstall ${addon.name}?`,
        question: `Its page roles are dropped, and its pages are no longer offered.`,
        confirm: 'Uninstall',
      }))
    )
      return;
    const answer = await call(async () =>
      api.POST('/addons/{key}/actions/{action}', {
        params: { header: await csrf(), path: { key: addon.key, action } },
        body,
      }),
    );
    if (answer.ok) changed(answer.message);
    else refused(answer.refusal);
  };
  /** An editor's opener: named with the add-on, since every card has one. */
  const opener = (mode: Editing, label: string, name: string, primary = false) => (
    <button
      type="button"
      class={primary ? 'primary' : undefined}
      ref={(button) => {
        openers.current[mode] = button;
      }}
      onClick={() => setEditing(mode)}
      aria-label={name}
    >
      {label}
    </button>
  );
  const menuLabel = addon.show_menu ? 'Hide from the menu' : 'Show in the menu';

  return (
    <article class="card addon" aria-labelledby={`addon-${addon.key}`}>
      <h2 id={`addon-${addon.key}`}>
        <Link to={pathFor(ADDON, { key: addon.key })}>{addon.name}</Link> <small>{addon.version}</small>
      </h2>
      <p>{addon.description}</p>
      <p>
        <span class={`status ${statusClass(addon)}`}>{stateInWords(addon)}</span> · by {addon.author}
      </p>
      <Done focusKey={outcome.serial}>{outcome.message}</Done>
      <RefusalNotice refusal={refusal} takeFocus />
      {canManage && !editing && (
        <div class="actions">
          {!addon.installed && opener('install', 'Install…', `Install ${addon.name}…`, true)}
          {addon.installed && (
            <>
              {opener('reinstall', 'Reinstall…', `Reinstall ${addon.name}…`)}
              {opener('access', 'Access…', `Access to ${addon.name}…`)}
              <button
                type="button"
                onClick={() => act(addon.enabled ? 'disable' : 'enable')}
                aria-label={`${addon.enabled ? 'Disable' : 'Enable'} ${addon.name}`}
              >
                {addon.enabled ? 'Disable' : 'Enable'}
              </button>
              {/* The visible words first in the name, so that speech input ("click Hide from the menu") finds it. */}
              <button
                type="button"
                onClick={() => act('menu', { show_menu: !addon.show_menu })}
                aria-label={`${menuLabel} – ${addon.name}`}
              >
                {menuLabel}
              </button>
              <button
                type="button"
                class="danger"
                onClick={() => act('uninstall')}
                aria-label={`Uninstall ${addon.name}…`}
              >
                Uninstall…
              </button>
              {dialog}
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
            if (message) changed(message);
            else cancelled.current = editing;
            setEditing(null);
          }}
          onStale={(refusal) => {
            setEditing(null);
            refused(refusal);
          }}
        />
      )}
      {addon.installed && <PagesYouMayOpen addonKey={addon.key} changes={changes} />}
    </article>
  );
}

/** What this administrator's role group lets it open: how an administrator sees the add-on. */
function PagesYouMayOpen({ addonKey, changes }: { addonKey: string; changes: number }) {
  const [pages, reload] = useLoad(
    () => call(() => api.GET('/addons/{key}/pages', { params: { path: { key: addonKey } } })),
    [addonKey, changes],
  );
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
