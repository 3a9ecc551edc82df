import { useRef } from 'preact/hooks';
import type { Schemas } from '../api/client';
import { useOverflow } from '../ui/overflow';
import { type PageRoles, type Right, setRight } from './page-roles';

interface EditorProps {
  /** Unique on the page: the explanation's id derives from it. */
  id: string;
  pages: Schemas['AddonPage'][];
  roles: Schemas['RoleGroup'][];
  value: PageRoles;
  onChange: (value: PageRoles) => void;
}

// One column each, under its own heading: the boxes line up with "view" and "manage" at any width.
const RIGHTS: Right[] = ['view', 'manage'];

/** Every page of the add-on against every enabled role group, with a view and a manage choice each. */
export function PageRolesEditor({ id, pages, roles, value, onChange }: EditorProps) {
  const explained = `${id}-explained`;
  const box = (page: Schemas['AddonPage'], role: Schemas['RoleGroup'], right: Right) => {
    const checked = value[page.id]?.[right].includes(role.id) ?? false;
    return (
      <input
        type="checkbox"
        checked={checked}
        aria-label={`${role.name} may ${right} ${page.title}`}
        onChange={(e) =>
          onChange(setRight(value, page.id, role.id, right, (e.currentTarget as HTMLInputElement).checked))
        }
      />
    );
  };
  const scroller = useRef<HTMLDivElement>(null);
  const more = useOverflow(scroller);
  // The browser brings a box that takes focus into the scrolling box's view, not out from under the
  // page names held over its left edge: going back with Shift+Tab would land on a hidden box.
  const uncover = (event: FocusEvent) => {
    const box = scroller.current;
    const names = box?.querySelector('tbody th');
    if (!box || !names || !(event.target instanceof HTMLInputElement)) return;
    const covered = names.getBoundingClientRect().right - event.target.getBoundingClientRect().left;
    if (covered > 0) box.scrollLeft -= covered + 8;
  };
  // The explanation stands outside the scrolling box: inside it, a narrow screen clips it with the table.
  return (
    <div class="page-roles-editor">
      <p id={explained} class="hint">
        Tick who may view each page, and who may also manage it. A page with no role is for super administrators only.
      </p>
      {roles.length === 0 && (
        <p class="hint">
          No enabled role group: only super administrators will see these pages. Create groups with `platform roles
          create`.
        </p>
      )}
      <MoreSideways left={more.left} right={more.right} />
      {/* The page names stay in view as the boxes scroll (style.css); each edge with more beyond it is shaded. */}
      <div class={`scroll-frame${more.left ? ' more-left' : ''}${more.right ? ' more-right' : ''}`}>
        <div ref={scroller} class="table-scroll" onFocusIn={uncover}>
          <table class="page-roles" aria-describedby={explained}>
            <caption>
              {/* Its own box, held at the left as the table scrolls: the caption itself is as wide as the table. */}
              <span>Page roles</span>
            </caption>
            <colgroup />
            {roles.map((role) => (
              <colgroup span={2} key={role.id} />
            ))}
            <thead>
              <tr>
                <th scope="col" rowSpan={roles.length > 0 ? 2 : 1}>
                  Page
                </th>
                {roles.map((role) => (
                  <th scope="colgroup" colSpan={2} class="role" key={role.id}>
                    {role.name}
                  </th>
                ))}
              </tr>
              {roles.length > 0 && (
                <tr>
                  {roles.flatMap((role) =>
                    RIGHTS.map((right) => (
                      <th scope="col" class="right" key={`${role.id}-${right}`}>
                        {right}
                      </th>
                    )),
                  )}
                </tr>
              )}
            </thead>
            <tbody>
              {pages.map((page) => (
                <tr key={page.id}>
                  <th scope="row">
                    {page.title} <small>({page.id})</small>
                  </th>
                  {roles.flatMap((role) =>
                    RIGHTS.map((right) => (
                      <td class="box" key={`${role.id}-${right}`}>
                        {box(page, role, right)}
                      </td>
                    )),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

/**
 * Says where the role groups the screen cannot show are: a phone shows two or three columns, and
 * a box cut at its edge would pass for the last one. The arrows are for the eye; a screen reader
 * reads the whole table anyway.
 */
function MoreSideways({ left, right }: { left: boolean; right: boolean }) {
  if (!left && !right) return null;
  const where = left && right ? 'on both sides' : left ? 'to the left' : 'to the right';
  return (
    <p class="hint more-sideways" data-testid="more-sideways">
      {left && <span aria-hidden="true">← </span>}
      More role groups {where}: scroll the table sideways.
      {right && <span aria-hidden="true"> →</span>}
    </p>
  );
}
