import { AdminEvent } from '../admin';
import { AdminStandingEvent } from '../admin-standing';
import type { SsoEvent } from '../sso/events';
import type { PasskeyEvent } from '../passkeys/events';
import type { SecondFactorEvent } from '../../member';
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
  /** Created by single sign-on at its first sign-in: it has no password here. */
  single_sign_on: boolean;
  second_factors: SecondFactors;
}

/** Its passkeys' count and whether an authenticator app (TOTP) is confirmed. */
export interface SecondFactors {
  passkeys: number;
  totp: boolean;
}

const NONE: SecondFactors = { passkeys: 0, totp: false };

type Listed = AdminEvent | AdminStandingEvent | SsoEvent | PasskeyEvent | SecondFactorEvent;

const passkeysCounted = (factors: SecondFactors, by: 1 | -1): SecondFactors => ({
  ...factors,
  passkeys: Math.max(0, factors.passkeys + by),
});

/** An existing administrator as a later event leaves it. */
function amended(doc: AdminDocument, event: Listed): AdminDocument {
  switch (event.type) {
    case 'AdministratorRoleGroupSet':
      return { ...doc, is_super: event.data.is_super, role_id: event.data.role_id };
    case 'AdminDisabled':
    case 'AdminEnabled':
      return { ...doc, enabled: event.type === 'AdminEnabled' };
    case 'PasskeyAdded':
    case 'PasskeyRemoved':
      return { ...doc, second_factors: passkeysCounted(doc.second_factors, event.type === 'PasskeyAdded' ? 1 : -1) };
    case 'TotpEnrolled':
    case 'SecondFactorRemoved':
      return { ...doc, second_factors: { ...doc.second_factors, totp: event.type === 'TotpEnrolled' } };
    default:
      return doc;
  }
}

/** Second-factor events, told apart from the administrators' own by the account they name. */
const ACCOUNT_EVENTS = new Set(['PasskeyAdded', 'PasskeyRemoved', 'TotpEnrolled', 'SecondFactorRemoved']);

/** An administrator's passkeys and authenticator app move its factors; a member's are no administrator's business. */
const idsOf = (event: { type: string; data: Record<string, unknown> }): string[] => {
  if (!ACCOUNT_EVENTS.has(event.type)) return [String(event.data.admin_id)];
  return event.data.side === 'admin' ? [String(event.data.account_id)] : [];
};

/**
 * Administrators by id, so that an audit trail can name who decided, the reviewers' digest
 * finds who reviews and where to mail, and the console lists them; the password hash stays in the stream.
 */
export const adminsProjection: Projection<AdminDocument, Listed> = {
  name: 'admins',
  // 5: whether an authenticator app (TOTP) is on, read again from the whole log.
  version: 5,
  collection: { name: 'admins', indexes: ['is_super'] },

  handles: [
    'AdminCreated',
    'AdminDisabled',
    'AdminEnabled',
    'AdministratorProvisioned',
    'AdministratorRoleGroupSet',
    'PasskeyAdded',
    'PasskeyRemoved',
    'TotpEnrolled',
    'SecondFactorRemoved',
  ],
  documentIds: idsOf,

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
          single_sign_on: false,
          second_factors: NONE,
        };
      }
      case 'AdministratorProvisioned': {
        const { admin_id, username, is_super, role_id } = event.data;
        return {
          id: admin_id,
          username,
          is_super,
          role_id,
          email: null,
          enabled: true,
          single_sign_on: true,
          second_factors: NONE,
        };
      }
      default:
        return doc && amended(doc, event);
    }
  },
};
