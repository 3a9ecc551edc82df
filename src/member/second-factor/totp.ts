import { generateSecret, generateURI, verify } from 'otplib';

/** RFC 6238 as authenticator apps use it: 30-second steps, 6 digits, HMAC-SHA-1. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

/** A new seed: 20 random bytes (160 bits, RFC 4226's recommendation), in base32 as apps take it. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** What the QR code holds: the account and the service named as the app will list them. */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/**
 * The time step `code` belongs to, when it is the seed's code for the step of `epochSeconds` or
 * the step either side of it (a phone's clock a little off, a code typed as it turned); null when
 * it is none of those. `secret` is base32, or the seed's bytes. Whether the step was used already
 * is the caller's to know (the account's last used step).
 */
export async function totpStepOf(
  secret: string | Uint8Array,
  code: string,
  epochSeconds: number,
  digits: 6 | 8 = TOTP_DIGITS,
): Promise<number | null> {
  if (!new RegExp(`^\\d{${digits}}$`).test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    digits,
    period: TOTP_PERIOD_SECONDS,
    epoch: epochSeconds,
    epochTolerance: TOTP_PERIOD_SECONDS,
  });
  // The functional API answers HOTP's result type too: a TOTP match carries its time step.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
