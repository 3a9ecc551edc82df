import { AdminEvent } from '../admin';
import { Projection } from '../../shared/projections/projection';

export interface AdminDocument {
  id: number;
  username: string;
}

/** Administrators by id, so that an audit trail can name who decided; the password hash stays in the stream. */
export const adminsProjection: Projection<AdminDocument, AdminEvent> = {
  name: 'admins',
  version: 1,
  collection: { name: 'admins', indexes: [] },

  handles: ['AdminCreated'],
  documentIds: (event) => [String(event.data.admin_id)],

  evolve: (_doc, { data: admin }) => ({ id: admin.admin_id, username: admin.username }),
};
