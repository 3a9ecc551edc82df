import { Decider, DomainError } from '../../shared/domain/decider';
import { adminDecider, AdminState, AdminStreamEvent } from '../admin';
import type { SsoEvent } from './events';

/** Who the provider says signs in, and where its claims place them. `admin_id`: the id a first sign-in takes. */
export interface SsoSignIn {
  type: 'SignInThroughSso';
  data: {
    admin_id: number;
    username: string;
    issuer: string;
    subject: string;
    is_super: boolean;
    role_id: number | null;
  };
}

/** The administrator as its stream has it, and the provider's person it was created for, if single sign-on created it. */
export interface SsoState {
  admin: AdminState;
  identity: { issuer: string; subject: string } | null;
}

/**
 * Creates the administrator at a first sign-in and moves it to the role group the claims name at
 * each later one. An administrator created with a password is never taken over by a provider that
 * names a person alike: the username belongs to whoever has it.
 */
export const ssoDecider: Decider<SsoSignIn, AdminStreamEvent, SsoState> = {
  initialState: { admin: adminDecider.initialState, identity: null },

  evolve(state, event) {
    const admin = adminDecider.evolve(state.admin, event);
    if (event.type !== 'AdministratorProvisioned') return { ...state, admin };
    return { admin, identity: { issuer: event.data.issuer, subject: event.data.subject } };
  },

  decide({ data }, { admin, identity }): SsoEvent[] {
    const { admin_id, username, issuer, subject, is_super, role_id } = data;
    if (admin.status === 'none') {
      return [{ type: 'AdministratorProvisioned', data: { admin_id, username, is_super, role_id, issuer, subject } }];
    }
    if (!identity || identity.issuer !== issuer || identity.subject !== subject) {
      throw new DomainError(
        'sso_username_taken',
        `the administrator "${username}" exists already and was not created by this single sign-on for you: ask an administrator to rename one of you`,
      );
    }
    if (admin.is_super === is_super && admin.role_id === role_id) return [];
    return [{ type: 'AdministratorRoleGroupSet', data: { admin_id: admin.admin_id, is_super, role_id } }];
  },
};
