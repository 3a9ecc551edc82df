import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import { api, call, csrf, type Answer, type Schemas } from '../api/client';

export type Passkey = Schemas['Passkey'];
export type Side = 'developer' | 'admin';

/**
 * The browser's refusal (the person closed the prompt, or no authenticator answered) told as a
 * refusal the console shows like the service's, so the card needs one notice for both.
 */
export async function inBrowser<T>(ceremony: () => Promise<T>): Promise<Answer<T>> {
  try {
    return { ok: true, data: await ceremony(), message: '' };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      refusal: {
        status: 0,
        error: 'passkey_cancelled',
        message: `The browser made no passkey: ${message}`,
        issues: [],
      },
    };
  }
}

/**
 * The browser's WebAuthn helpers, fetched when a ceremony begins: the sign-in offers passkeys, and
 * their script would otherwise weigh on the first screen's budget (test/web/first-screen-budget.test.ts).
 */
export const webauthn = () => import('@simplewebauthn/browser');

export const listPasskeys = (side: Side) =>
  call(() => (side === 'admin' ? api.GET('/admin/passkeys') : api.GET('/developer/passkeys')));

/** Asks the service for options, has the browser's authenticator make a passkey, and sends it under `name`. */
export async function addPasskey(side: Side, name: string): Promise<Answer<Passkey>> {
  const header = await csrf();
  const options = await call(() =>
    side === 'admin'
      ? api.POST('/admin/passkeys/options', { params: { header } })
      : api.POST('/developer/passkeys/options', { params: { header } }),
  );
  if (!options.ok) return options;
  const optionsJSON = options.data as unknown as PublicKeyCredentialCreationOptionsJSON;
  const made = await inBrowser(async () => (await webauthn()).startRegistration({ optionsJSON }));
  if (!made.ok) return made;
  const body = { name, response: made.data as unknown as Schemas['PasskeyRegistrationResponse'] };
  return call(() =>
    side === 'admin'
      ? api.POST('/admin/passkeys', { params: { header }, body })
      : api.POST('/developer/passkeys', { params: { header }, body }),
  );
}

export async function removePasskey(side: Side, id: string): Promise<Answer<null>> {
  const params = { header: await csrf(), path: { id } };
  return call(() =>
    side === 'admin'
      ? api.DELETE('/admin/passkeys/{id}', { params })
      : api.DELETE('/developer/passkeys/{id}', { params }),
  );
}

/** An administrator's sign-in with a passkey: options, the browser's signature, the answer. */
export async function signInWithPasskey(): Promise<Answer<Schemas['Administrator']>> {
  const header = await csrf();
  const options = await call(() => api.POST('/admin/login/passkey/options', { params: { header } }));
  if (!options.ok) return options;
  const optionsJSON = options.data as unknown as PublicKeyCredentialRequestOptionsJSON;
  const signed = await inBrowser(async () => (await webauthn()).startAuthentication({ optionsJSON }));
  if (!signed.ok) return signed;
  const body = { response: signed.data as unknown as Schemas['PasskeyAuthenticationResponse'] };
  return call(() => api.POST('/admin/login/passkey', { params: { header }, body }));
}
