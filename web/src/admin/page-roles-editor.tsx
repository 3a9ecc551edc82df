import type { Schemas } from '../api/client';
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
        onChange={(e) => onChange(setRight(value, page.id, role.id, right, (e.currentTarget as HTMLInputElement).checked))}
      />
    );
  };
  // The explanation stands outside the scrolling box: inside it, a narrow screen clips it with the table.
  return (
    <div class="page-roles-editor">
      <p id={explained} class="hint">
        Tick who may view each page, and who may also manage it. A page with no role is for super administrators only.
      </p>
      {roles.length === 0 && <p class="hint">No enabled role group: only super administrators will see these pages. Create groups with `platform roles create`.</p>}
      <div class="table-scroll">
        <table class="page-roles" aria-describedby={explained}>
          <caption>Page roles</caption>
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
  );
}
