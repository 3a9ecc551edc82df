import { restrictedScreen } from '../ui/enrol-second-factor';
import type { JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client';
import { MEMBER_HISTORY } from '../audit/links';
import { currentPath, matchPath, navigate } from '../router';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { Loading, LoadFailed } from '../ui/notice';
import { NotFound } from '../ui/not-found';
import { SignIn, signOut } from '../ui/sign-in';
import { ADDON, Addons } from './addons';
import { Contract } from './contract';
import { CredentialQueue } from './credential-queue';
import { DeadMails } from './dead-mails';
import { Administrators } from './administrators';
import { MemberPassword } from './member-password';
import { AcceptInvitation } from './invitation';
import { OwnAccount } from './own-account';
import { RoleGroupsManager } from './role-groups';
import { RoleGroups } from './roles';
import { ScopeQueue } from './scope-queue';
import { ScreenHeading } from '../ui/screen';
import { Chunk } from '../ui/chunk';

// The auditor's screens (timeline, proof checks, search, export) are their own chunk, off the first screen.
const loadAuditor = () => import('../audit/auditor').then((module) => module.Auditor);
const Auditor = (props: { member?: number }) => <Chunk load={loadAuditor} what="the audit" props={props} />;

// Screens few administrators open, each its own chunk: the first screen's script stays within its budget.
const loadApprovalRules = () => import('./approval-rules').then((module) => module.ApprovalRules);
const ApprovalRules = () => <Chunk load={loadApprovalRules} what="the approval rules" props={{}} />;
const loadWebhooks = () => import('./webhooks').then((module) => module.Webhooks);
const Webhooks = () => <Chunk load={loadWebhooks} what="the webhooks" props={{}} />;

type Permission = Schemas['AdminContext']['account']['permissions'][number];

/** What an address of a screen shows: from the address's parameters and what the account holds. */
type Show = (
  params: Record<string, string>,
  account: { held: Set<Permission>; roles: Schemas['RoleGroup'][]; self: number; isSuper: boolean; username: string },
) => JSX.Element;

/** One screen: its link, its permission, where it ranks as a landing, and what each of its addresses shows. */
interface Screen {
  path: string;
  label: string;
  /** The permissions of which the screen's endpoints ask for one; none: any administrator. */
  needs?: Permission[];
  /**
   * Where an administrator lands after sign-in: the lowest rank its permissions allow. Reviewers
   * meet their queue, auditors the audit, add-on administrators the application center.
   */
  landing?: number;
  show: Show;
  /** The screen's deeper addresses, patterns with parameters (`matchPath`), each a link to one thing. */
  deeper?: Record<string, Show>;
}

const MEMBER_ID = /^[1-9][0-9]{0,15}$/;

const SCREENS: Screen[] = [
  {
    path: '/admin/credentials',
    label: 'Credentials',
    needs: ['credential.review'],
    landing: 1,
    show: () => <CredentialQueue />,
  },
  { path: '/admin/scopes', label: 'Scope requests', needs: ['credential.review'], show: () => <ScopeQueue /> },
  { path: '/admin/rules', label: 'Approval rules', needs: ['credential.review'], show: () => <ApprovalRules /> },
  // The mails are the reviewers' decisions told to members, and their own digests.
  { path: '/admin/mail', label: 'Dead mail', needs: ['credential.review'], show: () => <DeadMails /> },
  {
    path: '/admin/addons',
    label: 'Application center',
    needs: ['addon.view'],
    landing: 3,
    show: (_, { held, roles }) => <Addons canManage={held.has('addon.manage')} roles={roles} />,
    deeper: {
      [ADDON]: ({ key }, { held, roles }) => <Addons only={key} canManage={held.has('addon.manage')} roles={roles} />,
    },
  },
  {
    path: '/admin/roles',
    label: 'Role groups',
    // Add-on administrators read the enabled groups their page whitelists name; access managers manage them all.
    needs: ['addon.view', 'access.manage'],
    show: (_, { held, roles }) =>
      held.has('access.manage') ? <RoleGroupsManager held={held} /> : <RoleGroups roles={roles} />,
  },
  {
    path: '/admin/administrators',
    label: 'Administrators',
    needs: ['access.manage'],
    landing: 5,
    show: (_, { self, isSuper, held }) => (
      <>
        <Administrators self={self} isSuper={isSuper} held={held} />
        <MemberPassword />
      </>
    ),
  },
  {
    path: '/admin/audit',
    label: 'Audit',
    needs: ['audit.read'],
    landing: 2,
    show: () => <Auditor />,
    deeper: {
      [MEMBER_HISTORY]: ({ id = '' }) =>
        MEMBER_ID.test(id) ? <Auditor member={Number(id)} /> : <NotFound home="/admin/audit" homeLabel="the audit" />,
    },
  },
  { path: '/admin/webhooks', label: 'Webhooks', needs: ['webhook.manage'], landing: 4, show: () => <Webhooks /> },
  { path: '/admin/contract', label: 'Contract', landing: 6, show: () => <Contract /> },
  { path: '/admin/account', label: 'Your account', show: (_, { username }) => <OwnAccount username={username} /> },
];

/** The screen an address belongs to, and what it shows there; null for an address of no screen. */
function routeOf(path: string): { screen: Screen; show: Show; params: Record<string, string> } | null {
  for (const screen of SCREENS) {
    if (path === screen.path) return { screen, show: screen.show, params: {} };
    for (const [pattern, show] of Object.entries(screen.deeper ?? {})) {
      const params = matchPath(pattern, path);
      if (params) return { screen, show, params };
    }
  }
  return null;
}

/** The first landing among the screens this account may use; the contract is open to every administrator. */
function landingOf(screens: Screen[]): string {
  return screens.filter((s) => s.landing).sort((a, b) => a.landing! - b.landing!)[0]?.path ?? '/admin/contract';
}

/** A screen this account may not use: which permission it needs, and the screens it may use instead. */
function NoAccess({ screen, screens }: { screen: Screen; screens: Screen[] }) {
  return (
    <section class="card" aria-labelledby="no-access-title">
      <ScreenHeading id="no-access-title">No access to {screen.label}</ScreenHeading>
      <p data-testid="no-access">
        You do not have access to {screen.label}: it needs the permission{' '}
        {screen.needs?.map((p, i) => (
          <span key={p}>
            {i > 0 && ' or '}
            <code>{p}</code>
          </span>
        ))}
        .
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
export function AdminArea({ path }: { path: string }) {
  const [context, reload] = useLoad(
    () => call(() => api.GET('/context'), { signedOutIsExpected: true }),
    [path === '/admin/login'],
  );
  const held = new Set(context.state === 'ready' ? context.data.account.permissions : []);
  const screens = SCREENS.filter((s) => !s.needs || s.needs.some((p) => held.has(p)));
  const landing = context.state === 'ready' ? landingOf(screens) : null;
  // The console's own address lands on the first screen this account may use, and says so in the URL.
  useEffect(() => {
    // The address as it is now: a click that left /admin meanwhile is not undone.
    if (path === '/admin' && landing && currentPath() === '/admin') navigate(landing, { replace: true });
  }, [path, landing]);

  // Reached from the mailed invitation, signed in or not: it is the link's token that counts.
  if (path === '/admin/invitation') return <AcceptInvitation />;
  if (path === '/admin/login' || (context.state === 'failed' && context.refusal.status === 401)) {
    return (
      <SignIn
        realm="admin"
        onSignedIn={() => {
          // Signing in where a screen stood asked for it keeps that screen's path: load it again.
          navigate(path === '/admin/login' ? '/admin' : path, { replace: true });
          reload();
        }}
      />
    );
  }
  if (context.state === 'loading') return <Loading what="your permissions" />;
  const restricted = context.state === 'failed' && restrictedScreen('admin', context.refusal, reload);
  if (restricted) return restricted;
  if (context.state === 'failed') return <LoadFailed refusal={context.refusal} onRetry={reload} />;

  const route = routeOf(path);
  return (
    <>
      <AdminNav screens={screens} current={route?.screen} account={context.data.account} />
      <AdminScreen path={path} route={route} screens={screens} held={held} context={context.data} />
    </>
  );
}

type Account = Schemas['AdminContext']['account'];

function AdminNav({ screens, current, account }: { screens: Screen[]; current: Screen | undefined; account: Account }) {
  return (
    <nav aria-label="Administrator console" class="subnav">
      {screens.map((s) => (
        <Link key={s.path} to={s.path} current={s === current}>
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
  );
}

interface AdminScreenProps {
  path: string;
  route: ReturnType<typeof routeOf>;
  /** The screens this account may open. */
  screens: Screen[];
  held: Set<Permission>;
  context: Schemas['AdminContext'];
}

/** The screen the path names when this account may open it; else why not. The console's own address shows nothing: it moves on to its landing screen. */
function AdminScreen({ path, route, screens, held, context }: AdminScreenProps) {
  if (!route)
    return path === '/admin' ? null : <NotFound home="/admin" homeLabel="the administrator console's first screen" />;
  if (!screens.includes(route.screen)) return <NoAccess screen={route.screen} screens={screens} />;
  const { account, role_groups } = context;
  return route.show(route.params, {
    held,
    roles: role_groups,
    self: account.id,
    isSuper: account.is_super,
    username: account.username,
  });
}
