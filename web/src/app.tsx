import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api/client';
import { AdminArea } from './admin/area';
import { DeveloperArea } from './developer/area';
import { Landing } from './landing';
import { currentPath, usePath } from './router';
import { Link } from './ui/link';
import { NotFound } from './ui/not-found';
import { ScreenArea } from './ui/screen';
import { SignInAgain } from './ui/sign-in-again';

const AREA_NAMES = { admin: 'Administrator console', developer: 'Developer center' };

export function App() {
  const path = usePath();
  // A session that ended under a screen: signed in again over it, so nothing typed is lost.
  const [expired, setExpired] = useState<'admin' | 'developer' | null>(null);
  const [resumed, setResumed] = useState(false);

  useEffect(() => {
    whenSignedOut(() => setExpired(currentPath().startsWith('/admin') ? 'admin' : 'developer'));
  }, []);
  useEffect(() => {
    // The message belongs to the screen it was signed in again on.
    setResumed(false);
  }, [path]);

  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  // An address in neither area is no page: said so, never the developer center in its place.
  const area = under('/admin') ? 'admin' : under('/developer') ? 'developer' : null;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Platform</span>
        <nav aria-label="Areas">
          <Link to="/developer" current={area === 'developer'}>
            Developer center
          </Link>
          <Link to="/admin" current={area === 'admin'}>
            Administrator console
          </Link>
        </nav>
      </header>
      {expired && (
        <SignInAgain
          realm={expired}
          onSignedIn={() => {
            setExpired(null);
            setResumed(true);
          }}
        />
      )}
      <main id="main" inert={expired !== null}>
        {resumed && (
          <p class="notice done" role="status">
            Signed in again. Everything you typed is where you left it.
          </p>
        )}
        <ScreenArea.Provider value={area && AREA_NAMES[area]}>
          {area === 'admin' ? (
            <AdminArea path={path} />
          ) : area === 'developer' ? (
            <DeveloperArea path={path} />
          ) : path === '/' ? (
            <Landing />
          ) : (
            <NotFound home="/developer" homeLabel="the developer center" />
          )}
        </ScreenArea.Provider>
      </main>
    </>
  );
}
