import { useEffect, useState } from 'preact/hooks';

export const BASE = '/ui';

// A screen with something the user would lose (a key not yet stored) asks before any navigation.
let leaveGuard: (() => boolean) | null = null;
let guardedPath = '';

export function guardLeaving(guard: (() => boolean) | null): void {
  leaveGuard = guard;
  guardedPath = location.pathname;
}

/** The path under /ui/, without the prefix: deep links load the application on any of them. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path.replace(/\/+$/, '') || '/';
}

export function navigate(path: string, { replace = false } = {}): void {
  if (leaveGuard && !leaveGuard()) return;
  leaveGuard = null;
  history[replace ? 'replaceState' : 'pushState'](null, '', `${BASE}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const changed = () => {
      // The browser's back button moved already: a user who stays is put back where the guard stands.
      if (leaveGuard && location.pathname !== guardedPath) {
        if (!leaveGuard()) return history.pushState(null, '', guardedPath);
        leaveGuard = null;
      }
      setPath(currentPath());
    };
    addEventListener('popstate', changed);
    return () => removeEventListener('popstate', changed);
  }, []);
  return path;
}

/** An in-app link: a real href (open in a new tab works), history navigation on a plain click. */
export function linkClick(event: MouseEvent, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(path);
}
