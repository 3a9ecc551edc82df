import type { Schemas } from '../api/client';

export type PageRoles = Schemas['PageRoles'];
export type Right = 'view' | 'manage';

/** Every page with no role: super administrators only, the starting point of an install. */
export function emptyPageRoles(pages: { id: string }[]): PageRoles {
  return Object.fromEntries(pages.map((p) => [p.id, { view: [], manage: [] }]));
}

/** The saved roles for exactly these pages: pages added by a new version start empty, dropped ones go. */
export function pageRolesFor(pages: { id: string }[], saved: PageRoles | null): PageRoles {
  return Object.fromEntries(
    pages.map((p) => [p.id, { view: [...(saved?.[p.id]?.view ?? [])], manage: [...(saved?.[p.id]?.manage ?? [])] }]),
  );
}

/**
 * Grants or withdraws one right of one role on one page, keeping manage within view: managing a
 * page grants viewing it, and withdrawing the view withdraws the manage.
 */
export function setRight(roles: PageRoles, page: string, role: number, right: Right, on: boolean): PageRoles {
  const current = roles[page] ?? { view: [], manage: [] };
  const without = (list: number[]) => list.filter((id) => id !== role);
  const withRole = (list: number[]) => (list.includes(role) ? list : [...list, role].sort((a, b) => a - b));
  let { view, manage } = current;
  if (right === 'view') {
    view = on ? withRole(view) : without(view);
    if (!on) manage = without(manage);
  } else {
    manage = on ? withRole(manage) : without(manage);
    if (on) view = withRole(view);
  }
  return { ...roles, [page]: { view, manage } };
}

/** What is sent: manage narrowed to view on every page, whatever state the editor was given. */
export function withinView(roles: PageRoles): PageRoles {
  return Object.fromEntries(
    Object.entries(roles).map(([page, r]) => [
      page,
      { view: r.view, manage: r.manage.filter((id) => r.view.includes(id)) },
    ]),
  );
}
