import { HttpError } from '../../shared/http/envelope';
import type { Refusal } from '../../shared/http/endpoints';
import type { SsoSettings } from './settings';

export const passwordSignInOff: Refusal = {
  status: 403,
  reasons: ['password_sign_in_off'],
  when: 'password_sign_in_off: OIDC_ONLY=true and this administrator is not a super administrator: sign in through single sign-on',
};

/**
 * With OIDC_ONLY, administrators sign in through the provider, but a super administrator keeps its
 * password: the break-glass way in when the provider is down. Told after the right password only.
 */
export function assertPasswordSignInAllowed(
  sso: Pick<SsoSettings, 'only' | 'displayName'> | null,
  admin: { is_super: boolean },
): void {
  if (!sso?.only || admin.is_super) return;
  throw new HttpError(
    403,
    'password_sign_in_off',
    `administrators sign in with ${sso.displayName} here (OIDC_ONLY): use "Sign in with ${sso.displayName}"`,
  );
}
