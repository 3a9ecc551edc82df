import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api/client';
import { AdminArea } from './admin/area';
import { DeveloperArea } from './developer/area';
import { Landing } from './landing';
import { currentPath, navigate, usePath } from './router';
import { Link } from './ui/link';
import { NotFound } from './ui/not-found';
import { ScreenArea } from './ui/screen';

const EXPIRED = 'Your session has ended. Sign in again to continue.';

const AREA_NAMES = { admin: 'Administrator console', developer: 'Developer center' };

export function App() {
  const path = usePath();
  const [notice, setNotice] = useState('');

  useEffect(() => {
    whenSignedOut(() => {
      setNotice(EXPIRED);
      navigate(currentPath().startsWith('/admin') ? '/admin/login' : '/developer/login', { replace: true });
    });
  }, []);
  useEffect(() => {
    // The message belongs to the sign-in it sent the user to, not to later ones.
    if (!path.endsWith('/login')) setNotice('');
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
      <main id="main">
        <ScreenArea.Provider value={area && AREA_NAMES[area]}>
          {area === 'admin' ? (
            <AdminArea path={path} notice={notice} />
          ) : area === 'developer' ? (
            <DeveloperArea path={path} notice={notice} />
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
