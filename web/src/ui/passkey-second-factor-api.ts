import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { api, call, csrf, type Answer, type Schemas } from '../api/client';
import { inBrowser, webauthn, type Side } from './passkeys-api';

/**
 * A pending sign-in's passkey options, or `null` when the account has none (404 `no_passkey`): the
 * second-factor step offers a passkey only to an account that holds one.
 */
export async function passkeySecondFactorOptions(
  side: Side,
): Promise<Answer<PublicKeyCredentialRequestOptionsJSON | null>> {
  const params = { header: await csrf() };
  const options = await call(() =>
    side === 'admin'
      ? api.POST('/admin/login/second-factor/passkey/options', { params })
      : api.POST('/developer/login/second-factor/passkey/options', { params }),
  );
  if (!options.ok && options.refusal.error === 'no_passkey') return { ok: true, data: null, message: '' };
  if (!options.ok) return options;
  return { ok: true, data: options.data as unknown as PublicKeyCredentialRequestOptionsJSON, message: '' };
}

/** Completes the pending sign-in with the browser's signature over the options given. */
export async function secondFactorWithPasskey(
  side: Side,
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<Answer<{ id: number; username: string }>> {
  const signed = await inBrowser(async () => (await webauthn()).startAuthentication({ optionsJSON }));
  if (!signed.ok) return signed;
  const params = { header: await csrf() };
  const body = { response: signed.data as unknown as Schemas['PasskeyAuthenticationResponse'] };
  return call(() =>
    side === 'admin'
      ? api.POST('/admin/login/second-factor/passkey', { params, body })
      : api.POST('/developer/login/second-factor/passkey', { params, body }),
  );
}
