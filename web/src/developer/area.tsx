import { useEffect, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api/client';
import { navigate } from '../router';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { Loading, LoadFailed, type Outcome, useOutcome } from '../ui/notice';
import { NotFound } from '../ui/not-found';
import { restrictedScreen } from '../ui/enrol-second-factor';
import { SignIn, signOut } from '../ui/sign-in';
import { AccountPage } from './account';
import { Claim } from './claim';
import { DeveloperDashboard } from './dashboard';
import { ConfirmEmail, ForgotPassword, ResetPassword, RestoreEmail } from './password-reset';
import { PartnerReference } from './reference';
import { Register } from './register';
import { ScopeRequest } from './scope-request';
import { Chunk } from '../ui/chunk';

// The developer's webhooks are their own chunk, off the first screen's script budget.
const loadWebhooks = () => import('./webhooks').then((module) => module.DeveloperWebhooks);
const DeveloperWebhooks = () => <Chunk load={loadWebhooks} what="your webhooks" props={{}} />;

const SCREENS: [string, string][] = [
  ['/developer', 'Dashboard'],
  ['/developer/claim', 'Claim'],
  ['/developer/scopes', 'Request scopes'],
  ['/developer/reference', 'API reference'],
  ['/developer/webhooks', 'Webhooks'],
  ['/developer/account', 'Account'],
];

/** Screens reached signed out as well: from the sign-in, or from a mailed link. */
const OPEN_SCREENS: Record<string, () => preact.JSX.Element> = {
  '/developer/forgot': ForgotPassword,
  '/developer/reset': ResetPassword,
  '/developer/confirm-email': ConfirmEmail,
  '/developer/restore-email': RestoreEmail,
};

/** The signed-in member's screens and the way out; shown also when the dashboard failed to load. */
function DeveloperNav({ path, username }: { path: string; username?: string }) {
  return (
    <nav aria-label="Developer center" class="subnav">
      {SCREENS.map(([to, label]) => (
        <Link key={to} to={to} current={path === to}>
          {label}
        </Link>
      ))}
      <span class="account">
        {username && <span class="who">{username}</span>}
        <button type="button" onClick={() => void signOut('developer')}>
          Sign out
        </button>
      </span>
    </nav>
  );
}

/** The developer center: sign-in and registration, then the screens of a signed-in member. */
export function DeveloperArea({ path }: { path: string }) {
  // Read again on every screen: an administrator's decision (an approval, a revocation) is made
  // elsewhere, and the Claim screen must not say "waiting" for a credential approved meanwhile.
  const [dashboard, reload] = useLoad(
    () => call(() => api.GET('/developer/dashboard'), { signedOutIsExpected: true }),
    [path],
  );
  // What the member's last request did, said on the dashboard, where a request lands; gone once the member moves on.
  const [outcome, report, clear] = useOutcome();
  useEffect(() => {
    if (path !== '/developer') clear();
  }, [path]);
  const requested = (message: string) => {
    report(message);
    reload();
  };

  // Just registered: the dashboard's last answer is still the signed-out one. Until the member's
  // arrives nothing takes the screen, so the new dashboard's heading, not a passing sign-in, gets focus.
  const [registered, setRegistered] = useState(false);
  // A signed-out answer may still be the one asked for before the registration.
  useEffect(() => {
    if (dashboard.state === 'ready' || (dashboard.state === 'failed' && dashboard.refusal.status !== 401))
      setRegistered(false);
  }, [dashboard]);

  if (path === '/developer/register') {
    return (
      <Register
        onRegistered={() => {
          setRegistered(true);
          navigate('/developer');
        }}
      />
    );
  }
  const Open = OPEN_SCREENS[path];
  if (Open) return <Open />;
  if (registered) return <Loading what="your dashboard" />;
  if (path === '/developer/login' || (dashboard.state === 'failed' && dashboard.refusal.status === 401)) {
    return (
      <SignIn
        realm="developer"
        onSignedIn={() => {
          // Signing in where a screen stood asked for it keeps that screen's path: load it again.
          navigate(path === '/developer/login' ? '/developer' : path, { replace: true });
          reload();
        }}
      >
        <p class="aside">
          <Link to="/developer/forgot">Forgot password?</Link> New here?{' '}
          <Link to="/developer/register">Register as a developer</Link>. Administrators sign in on the{' '}
          <Link to="/admin">administrator console</Link>.
        </p>
      </SignIn>
    );
  }
  if (dashboard.state === 'loading') return <Loading what="your dashboard" />;
  const restricted = dashboard.state === 'failed' && restrictedScreen('developer', dashboard.refusal, reload);
  if (restricted) return restricted;
  if (dashboard.state === 'failed') {
    return (
      <>
        <DeveloperNav path={path} />
        <LoadFailed refusal={dashboard.refusal} onRetry={reload} />
      </>
    );
  }

  return (
    <>
      <DeveloperNav path={path} username={dashboard.data.member.username} />
      <MemberScreen path={path} dashboard={dashboard.data} reload={reload} outcome={outcome} onOutcome={requested} />
    </>
  );
}

interface MemberScreenProps {
  path: string;
  dashboard: Schemas['Dashboard'];
  reload: () => void;
  outcome: Outcome;
  onOutcome: (message: string) => void;
}

/** The screen a signed-in member's path names; the dashboard by default. */
function MemberScreen({ path, dashboard, reload, outcome, onOutcome }: MemberScreenProps) {
  const { credential } = dashboard;
  if (!SCREENS.some(([to]) => to === path)) return <NotFound home="/developer" homeLabel="your dashboard" />;
  if (path === '/developer/claim') return <Claim status={credential.status} onClaimed={reload} />;
  if (path === '/developer/scopes') return <ScopeRequest status={credential.status} onRequested={onOutcome} />;
  if (path === '/developer/reference') return <PartnerReference apiid={credential.apiid} />;
  if (path === '/developer/account') return <AccountPage />;
  if (path === '/developer/webhooks') return <DeveloperWebhooks />;
  return <DeveloperDashboard dashboard={dashboard} reload={reload} outcome={outcome} onOutcome={onOutcome} />;
}
