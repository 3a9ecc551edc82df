import { api, call, csrf, forgetCsrfToken, type Schemas } from '../api/client';
import { Auditor } from '../audit/auditor';
import { navigate } from '../router';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { Loading, RefusalNotice } from '../ui/notice';
import { SignIn } from '../ui/sign-in';
import { Addons } from './addons';
import { Contract } from './contract';
import { CredentialQueue } from './credential-queue';
import { RoleGroups } from './roles';
import { ScopeQueue } from './scope-queue';
import { Webhooks } from './webhooks';

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

/** The administrator console: only the screens whose permissions /context says this account holds. */
export function AdminArea({ path, notice }: { path: string; notice: string }) {
  const [context, reload] = useLoad(() => call(() => api.GET('/context'), { signedOutIsExpected: true }), [path === '/admin/login']);

  if (path === '/admin/login' || (context.state === 'failed' && context.refusal.status === 401)) {
    return <SignIn realm="admin" notice={notice} onSignedIn={() => {
          // Signing in where a screen stood asked for it keeps that screen's path: load it again.
          navigate(path === '/admin/login' ? '/admin' : path, { replace: true });
          reload();
        }} />;
  }
  if (context.state === 'loading') return <Loading what="your permissions" />;
  if (context.state === 'failed') return <RefusalNotice refusal={context.refusal} />;

  const { account, role_groups } = context.data;
  const held = new Set(account.permissions);
  const screens = SCREENS.filter((s) => !s.needs || held.has(s.needs));
  const screen = screens.find((s) => s.path === path) ?? screens[0]!;
  const signOut = async () => {
    await call(async () => api.POST('/admin/logout', { params: { header: await csrf() }, body: {} }));
    forgetCsrfToken();
    navigate('/admin/login');
  };

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
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </span>
      </nav>
      {screen.path === '/admin/credentials' && <CredentialQueue />}
      {screen.path === '/admin/scopes' && <ScopeQueue />}
      {screen.path === '/admin/addons' && <Addons canManage={held.has('addon.manage')} roles={role_groups} />}
      {screen.path === '/admin/roles' && <RoleGroups roles={role_groups} />}
      {screen.path === '/admin/audit' && <Auditor />}
      {screen.path === '/admin/webhooks' && <Webhooks />}
      {screen.path === '/admin/contract' && <Contract />}
    </>
  );
}
