import { api, call, csrf, type Answer } from '../api/client';
import type { Side } from './passkeys-api';

/** The account's authenticator app: whether it is on, and how many recovery codes remain. */
export const totpStatus = (side: Side) =>
  call(() => (side === 'admin' ? api.GET('/admin/2fa') : api.GET('/developer/2fa')));

/** Begins enrolment: a new seed (base32) and the otpauth URI the QR code holds; nothing is on yet. */
export async function beginTotp(side: Side): Promise<Answer<{ secret: string; otpauth_uri: string }>> {
  const params = { header: await csrf() };
  return call(() =>
    side === 'admin'
      ? api.POST('/admin/2fa/totp', { params, body: {} })
      : api.POST('/developer/2fa/totp', { params, body: {} }),
  );
}

/** Confirms with the app's current code: the factor is on; the answer holds the 10 recovery codes, this once. */
export async function confirmTotp(side: Side, code: string): Promise<Answer<{ recovery_codes: string[] }>> {
  const params = { header: await csrf() };
  const body = { code };
  return call(() =>
    side === 'admin'
      ? api.POST('/admin/2fa/totp/confirm', { params, body })
      : api.POST('/developer/2fa/totp/confirm', { params, body }),
  );
}

/** Turns the factor off: the password and a code (or a recovery code) prove the holder asks. */
export async function removeTotp(
  side: Side,
  password: string,
  proof: { code: string } | { recovery_code: string },
): Promise<Answer<null>> {
  const params = { header: await csrf() };
  const body = { password, ...proof };
  return call(() =>
    side === 'admin' ? api.DELETE('/admin/2fa', { params, body }) : api.DELETE('/developer/2fa', { params, body }),
  );
}
