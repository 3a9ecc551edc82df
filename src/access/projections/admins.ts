import { AdminEvent } from '../admin';
import { Projection } from '../../shared/projections/projection';

export interface AdminDocument {
  id: number;
  username: string;
  is_super: boolean;
  role_id: number | null;
  /** Null: the administrator is mailed nothing. */
  email: string | null;
}

/**
 * Administrators by id, so that an audit trail can name who decided and the reviewers' digest
 * finds who reviews and where to mail; the password hash stays in the stream.
 */
export const adminsProjection: Projection<AdminDocument, AdminEvent> = {
  name: 'admins',
  version: 2,
  collection: { name: 'admins', indexes: [] },

  handles: ['AdminCreated'],
  documentIds: (event) => [String(event.data.admin_id)],

  evolve: (_doc, { data: admin }) => ({
    id: admin.admin_id,
    username: admin.username,
    is_super: admin.is_super,
    role_id: admin.role_id,
    email: admin.email,
  }),
};
