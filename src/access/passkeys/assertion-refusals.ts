import type { Refusal } from '../../shared/http/endpoints';

/** What a signed assertion may be refused with once its signature checks out, at sign-in and as a second factor alike. */
export const assertionRefusals: Refusal[] = [
  {
    status: 409,
    reasons: ['passkey_challenge_missing', 'passkey_challenge_used', 'passkey_not_found'],
    when: 'no options were asked for in this session, or they were answered already or expired (passkey_challenge_missing); this signature was taken already (passkey_challenge_used); the passkey was removed meanwhile (passkey_not_found)',
  },
  {
    status: 422,
    reasons: ['passkey_counter_regressed'],
    when: "passkey_counter_regressed: the authenticator's signature counter went back, the sign of a copied authenticator",
  },
];
