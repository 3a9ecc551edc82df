import { AdminEvent } from '../admin';
import { AdminStandingEvent } from '../admin-standing';
import type { SsoEvent } from '../sso/events';
import { Projection } from '../../shared/projections/projection';

export interface AdminDocument {
  id: number;
  username: string;
  is_super: boolean;
  role_id: number | null;
  /** Null: the administrator is mailed nothing. */
  email: string | null;
  /** False once disabled: refused at login, and every session of theirs ended. */
  enabled: boolean;
}

/**
 * Administrators by id, so that an audit trail can name who decided, the reviewers' digest
 * finds who reviews and where to mail, and the console lists them; the password hash stays in the stream.
 */
export const adminsProjection: Projection<AdminDocument, AdminEvent | AdminStandingEvent | SsoEvent> = {
  name: 'admins',
  // Still 3 with the single sign-on events: no log written before them holds one, so no document changes.
  version: 3,
  collection: { name: 'admins', indexes: ['is_super'] },

  handles: ['AdminCreated', 'AdminDisabled', 'AdminEnabled', 'AdministratorProvisioned', 'AdministratorRoleGroupSet'],
  documentIds: (event) => [String(event.data.admin_id)],

  evolve(doc, event) {
    switch (event.type) {
      case 'AdminCreated': {
        const admin = event.data;
        return {
          id: admin.admin_id,
          username: admin.username,
          is_super: admin.is_super,
          role_id: admin.role_id,
          email: admin.email,
          enabled: true,
        };
      }
      case 'AdministratorProvisioned': {
        const { admin_id, username, is_super, role_id } = event.data;
        return { id: admin_id, username, is_super, role_id, email: null, enabled: true };
      }
      case 'AdministratorRoleGroupSet':
        return doc && { ...doc, is_super: event.data.is_super, role_id: event.data.role_id };
      case 'AdminDisabled':
        return doc && { ...doc, enabled: false };
      case 'AdminEnabled':
        return doc && { ...doc, enabled: true };
      default:
        return doc;
    }
  },
};
