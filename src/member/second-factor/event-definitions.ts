import type { EventDefinition } from '../../shared/slice';
import { secondFactorEventSchemas } from './events';

const WHO = { member: 'member', admin: 'administrator' } as const;

/** The account that acted on its own second factor: "member 7 (alice)". */
const who = (data: Record<string, unknown>): string =>
  `${WHO[data.side as keyof typeof WHO] ?? String(data.side)} ${String(data.account_id)} (${String(data.username)})`;

/**
 * How the audit trail tells each second-factor event; the seed and the codes' digests are secret
 * fields, never worded. Every one is the account's own doing: no one else enrols or removes it.
 */
export const secondFactorWording: Record<keyof typeof secondFactorEventSchemas, Pick<EventDefinition, 'describe'>> = {
  TotpEnrolmentBegun: { describe: (data) => `${who(data)} began enrolling an authenticator app (TOTP)` },
  TotpEnrolled: {
    describe: (data) =>
      `${who(data)} confirmed an authenticator app (TOTP) as their second factor and was given 10 recovery codes`,
  },
  TotpCodeUsed: { describe: (data) => `${who(data)} gave a code from their authenticator app` },
  RecoveryCodeUsed: {
    describe: (data) => `${who(data)} used a recovery code; ${String(data.remaining)} remain`,
  },
  SecondFactorRemoved: {
    describe: (data) => `${who(data)} removed their second factor, with their password and a code`,
  },
};
