import { useEffect, useRef, useState } from 'preact/hooks';

export const BASE = '/ui';

// A screen with something the user would lose (a key not yet stored) asks before any navigation.
let leaveGuard: (() => boolean) | null = null;
let guardedPath = '';

// A screen change leaves focus on a link or button that is gone: the new screen takes it, once.
let arrived = false;

/** Whether the screen changed since the last call; the first to ask after a change moves focus there. */
export function takeArrival(): boolean {
  const was = arrived;
  arrived = false;
  return was;
}

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
  arrived = true;
  history[replace ? 'replaceState' : 'pushState'](null, '', `${BASE}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  const shown = useRef(path);
  useEffect(() => {
    const changed = () => {
      // The browser's back button moved already: a user who stays is put back where the guard stands.
      if (leaveGuard && location.pathname !== guardedPath) {
        if (!leaveGuard()) return history.pushState(null, '', guardedPath);
        leaveGuard = null;
      }
      // A fragment link moves within the screen: only another path is another screen.
      const next = currentPath();
      if (next !== shown.current) arrived = true;
      shown.current = next;
      setPath(next);
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
