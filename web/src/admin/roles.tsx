import type { Schemas } from '../api/client';
import { TableHead } from '../ui/table';
import { Empty } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';

/** The enabled role groups and their permissions; they are defined on the command line. */
export function RoleGroups({ roles }: { roles: Schemas['RoleGroup'][] }) {
  return (
    <>
      <ScreenHeading>Role groups</ScreenHeading>
      <p>
        Role groups are created, enabled and disabled with <code>platform roles</code> on the server; administrators
        join one with <code>platform admin create --role</code>.
      </p>
      {roles.length === 0 ? (
        <Empty>No enabled role group.</Empty>
      ) : (
        <table>
          <TableHead columns={['Id', 'Name', 'Permissions']} />
          <tbody>
            {roles.map((role) => (
              <tr key={role.id}>
                <td>{role.id}</td>
                <td>{role.name}</td>
                <td>{role.permissions.join(', ') || 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
