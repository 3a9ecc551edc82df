import { AdminProfile } from '../admin';
import { Projection } from '../../shared/projections/projection';

export interface AdminDocument {
  id: number;
  username: string;
}

/** Administrators by id, so that an audit trail can name who decided; the password hash stays in the stream. */
export const adminsProjection: Projection<AdminDocument> = {
  name: 'admins',
  version: 1,
  collection: { name: 'admins', indexes: [] },

  documentIds: (event) => (event.type === 'AdminCreated' ? [String(event.data.admin_id)] : []),

  evolve(doc, event) {
    if (event.type !== 'AdminCreated') return doc;
    const admin = event.data as unknown as AdminProfile;
    return { id: admin.admin_id, username: admin.username };
  },
};
