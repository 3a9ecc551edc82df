import { useEffect } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client';
import { Auditor } from '../audit/auditor';
import { currentPath, navigate } from '../router';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { Loading, LoadFailed } from '../ui/notice';
import { NotFound } from '../ui/not-found';
import { SignIn, signOut } from '../ui/sign-in';
import { Addons } from './addons';
import { Contract } from './contract';
import { CredentialQueue } from './credential-queue';
import { RoleGroups } from './roles';
import { ScopeQueue } from './scope-queue';
import { Webhooks } from './webhooks';
import { ScreenHeading } from '../ui/screen';

type Permission = Schemas['AdminContext']['account']['permissions'][number];

interface Screen {
  path: string;
  label: string;
  /** The permission the screen's endpoints ask for; none: any administrator. */
  needs?: Permission;
}

const SCREENS: Screen[] = [
  { path: '/admin/credentials', label: 'Credentials', needs: 'credential.review' },
  { path: '/admin/scopes', label: 'Scope requests', needs: 'credential.review' },
  { path: '/admin/addons', label: 'Application center', needs: 'addon.view' },
  { path: '/admin/roles', label: 'Role groups', needs: 'addon.view' },
  { path: '/admin/audit', label: 'Audit', needs: 'audit.read' },
  { path: '/admin/webhooks', label: 'Webhooks', needs: 'webhook.manage' },
  { path: '/admin/contract', label: 'Contract' },
];

/**
 * Where an administrator lands after sign-in: the first of these its permissions allow. Reviewers
 * meet their queue, auditors the audit, add-on administrators the application center.
 */
const LANDING = ['/admin/credentials', '/admin/audit', '/admin/addons', '/admin/webhooks', '/admin/contract'];

function landingOf(screens: Screen[]): string {
  return LANDING.find((path) => screens.some((s) => s.path === path)) ?? screens[0]?.path ?? '/admin/contract';
}

/** A screen this account may not use: which permission it needs, and the screens it may use instead. */
function NoAccess({ screen, screens }: { screen: Screen; screens: Screen[] }) {
  return (
    <section class="card" aria-labelledby="no-access-title">
      <ScreenHeading id="no-access-title">No access to {screen.label}</ScreenHeading>
      <p data-testid="no-access">
        You do not have access to {screen.label}: it needs the permission <code>{screen.needs}</code>.
      </p>
      <p>The screens you may use:</p>
      <ul>
        {screens.map((s) => (
          <li key={s.path}>
            <Link to={s.path}>{s.label}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The administrator console: only the screens whose permissions /context says this account holds. */
export function AdminArea({ path, notice }: { path: string; notice: string }) {
  const [context, reload] = useLoad(() => call(() => api.GET('/context'), { signedOutIsExpected: true }), [path === '/admin/login']);
  const held = new Set(context.state === 'ready' ? context.data.account.permissions : []);
  const screens = SCREENS.filter((s) => !s.needs || held.has(s.needs));
  const landing = context.state === 'ready' ? landingOf(screens) : null;
  // The console's own address lands on the first screen this account may use, and says so in the URL.
  useEffect(() => {
    // The address as it is now: a click that left /admin meanwhile is not undone.
    if (path === '/admin' && landing && currentPath() === '/admin') navigate(landing, { replace: true });
  }, [path, landing]);

  if (path === '/admin/login' || (context.state === 'failed' && context.refusal.status === 401)) {
    return <SignIn realm="admin" notice={notice} onSignedIn={() => {
          // Signing in where a screen stood asked for it keeps that screen's path: load it again.
          navigate(path === '/admin/login' ? '/admin' : path, { replace: true });
          reload();
        }} />;
  }
  if (context.state === 'loading') return <Loading what="your permissions" />;
  if (context.state === 'failed') return <LoadFailed refusal={context.refusal} onRetry={reload} />;

  const { account, role_groups } = context.data;
  const screen = screens.find((s) => s.path === path);
  const known = SCREENS.find((s) => s.path === path);

  return (
    <>
      <nav aria-label="Administrator console" class="subnav">
        {screens.map((s) => (
          <Link key={s.path} to={s.path} current={s === screen}>
            {s.label}
          </Link>
        ))}
        <span class="account">
          <span class="who">
            {account.username}
            {account.is_super ? ' (super)' : ''}
          </span>
          <button type="button" onClick={() => void signOut('admin')}>
            Sign out
          </button>
        </span>
      </nav>
      {!screen && known && <NoAccess screen={known} screens={screens} />}
      {!screen && !known && path !== '/admin' && <NotFound home="/admin" homeLabel="the administrator console's first screen" />}
      {screen?.path === '/admin/credentials' && <CredentialQueue />}
      {screen?.path === '/admin/scopes' && <ScopeQueue />}
      {screen?.path === '/admin/addons' && <Addons canManage={held.has('addon.manage')} roles={role_groups} />}
      {screen?.path === '/admin/roles' && <RoleGroups roles={role_groups} />}
      {screen?.path === '/admin/audit' && <Auditor />}
      {screen?.path === '/admin/webhooks' && <Webhooks />}
      {screen?.path === '/admin/contract' && <Contract />}
    </>
  );
}
