import { useEffect, useRef, useState } from 'preact/hooks';

export const BASE = '/ui';

// A screen with something the user would lose (a key not yet stored) asks before any navigation:
// in the page, so the answer comes later.
type LeaveGuard = () => Promise<boolean>;
let leaveGuard: LeaveGuard | null = null;
let guardedPath = '';

// A screen change leaves focus on a link or button that is gone: the new screen takes it, once.
let arrived = false;

/** Whether the screen changed since the last call; the first to ask after a change moves focus there. */
export function takeArrival(): boolean {
  const was = arrived;
  arrived = false;
  return was;
}

export function guardLeaving(guard: LeaveGuard | null): void {
  leaveGuard = guard;
  guardedPath = location.pathname;
}

/** The path under /ui/, without the prefix: deep links load the application on any of them. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path.replace(/\/+$/, '') || '/';
}

// A move within one screen (another member's history): the address follows, focus stays put.
let staying = false;

/** `stay`: the screen shows something else in place, so the user's focus is left where it is. */
export function navigate(path: string, { replace = false, stay = false } = {}): void {
  const guard = leaveGuard;
  if (guard) {
    void guard().then((leave) => {
      if (!leave) return;
      if (leaveGuard === guard) leaveGuard = null;
      navigate(path, { replace, stay });
    });
    return;
  }
  if (!stay) arrived = true;
  staying = stay;
  history[replace ? 'replaceState' : 'pushState'](null, '', `${BASE}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
  staying = false;
}

/**
 * The parameters a path gives a pattern ("/admin/audit/members/:id" and "/admin/audit/members/7"
 * give { id: "7" }), or null when the path is not one of the pattern's. A parameter is one
 * non-empty segment, decoded.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const wanted = pattern.split('/');
  const given = path.split('/');
  if (wanted.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of wanted.entries()) {
    const segment = given[i]!;
    if (!part.startsWith(':')) {
      if (part !== segment) return null;
      continue;
    }
    if (!segment) return null;
    try {
      params[part.slice(1)] = decodeURIComponent(segment);
    } catch {
      return null;
    }
  }
  return params;
}

/** The path of a pattern with its parameters filled in, each encoded: what `matchPath` reads back. */
export function pathFor(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}

export function usePath(): string {
  const [path, setPath] = useState(currentPath);
  const shown = useRef(path);
  useEffect(() => {
    const changed = () => {
      // The browser's back button moved already: the address goes back to where the guard stands
      // while the user is asked, and on to where they were going if they leave.
      const guard = leaveGuard;
      if (guard && location.pathname !== guardedPath) {
        const going = `${location.pathname}${location.search}${location.hash}`;
        history.pushState(null, '', guardedPath);
        void guard().then((leave) => {
          if (!leave) return;
          if (leaveGuard === guard) leaveGuard = null;
          history.pushState(null, '', going);
          changed();
        });
        return;
      }
      // A fragment link moves within the screen: only another path is another screen.
      const next = currentPath();
      if (next !== shown.current && !staying) arrived = true;
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
