import type { Settings } from '../../config';
import type { MappingSettings } from './mapping';

type Raw = Pick<Settings, `OIDC_${string}` & keyof Settings>;

export interface SsoSettings extends MappingSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  displayName: string;
  /** Whether administrators' password sign-in is off, but for super administrators. */
  only: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain http is for a provider on this machine only (the tests'): anywhere else the tokens would cross the network in clear. */
export const isLoopback = (url: URL): boolean => LOOPBACK.has(url.hostname);

/** The settings of single sign-on, or null when OIDC_ISSUER_URL is unset; a message that says what to fix otherwise. */
export function ssoSettingsOf(raw: Raw & { PUBLIC_URL: string }): SsoSettings | null {
  if (!raw.OIDC_ISSUER_URL) return null;
  const issuer = new URL(raw.OIDC_ISSUER_URL);
  if (issuer.protocol === 'http:' && !isLoopback(issuer)) {
    throw new Error('OIDC_ISSUER_URL must be https:// (http:// only for a provider on the loopback address)');
  }
  if (!raw.OIDC_CLIENT_ID || !raw.OIDC_CLIENT_SECRET) {
    throw new Error(
      'OIDC_ISSUER_URL is set: set OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too, as the provider registered this service',
    );
  }
  const roleGroups = (raw.OIDC_ROLE_GROUPS ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((s) => s.trim()) as [string, string]);
  return {
    issuer,
    clientId: raw.OIDC_CLIENT_ID,
    clientSecret: raw.OIDC_CLIENT_SECRET,
    redirectUrl: raw.OIDC_REDIRECT_URL ?? `${raw.PUBLIC_URL.replace(/\/$/, '')}/api/v1/admin/sso/callback`,
    groupsClaim: raw.OIDC_GROUPS_CLAIM,
    roleGroups,
    superGroup: raw.OIDC_SUPER_GROUP ?? null,
    displayName: raw.OIDC_DISPLAY_NAME,
    only: raw.OIDC_ONLY === 'true',
  };
}
