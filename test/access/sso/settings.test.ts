import { ssoSettingsOf } from '../../../src/access/sso/settings';
import { parseSettings } from '../../../src/config';

const settings = (env: Record<string, string>) => ssoSettingsOf(parseSettings(env));
const complete = { OIDC_CLIENT_ID: 'platform', OIDC_CLIENT_SECRET: 'secret' };

describe('the OIDC_* settings', () => {
  it('are off without OIDC_ISSUER_URL', () => {
    expect(settings({})).toBeNull();
  });

  it('default the redirect to the console address, the claim to groups, and map claim values to role groups', () => {
    const sso = settings({
      ...complete,
      OIDC_ISSUER_URL: 'https://id.example.com',
      PUBLIC_URL: 'https://api.example.com/',
      OIDC_ROLE_GROUPS: 'platform-ops=Operators,platform-audit=Auditors',
    })!;
    expect(sso.redirectUrl).toBe('https://api.example.com/api/v1/admin/sso/callback');
    expect(sso.groupsClaim).toBe('groups');
    expect(sso.roleGroups).toEqual([
      ['platform-ops', 'Operators'],
      ['platform-audit', 'Auditors'],
    ]);
    expect(sso.superGroup).toBeNull();
    expect(sso.only).toBe(false);
  });

  it('take a plain http issuer on the loopback address only', () => {
    expect(settings({ ...complete, OIDC_ISSUER_URL: 'http://127.0.0.1:4000' })!.issuer.port).toBe('4000');
    expect(() => settings({ ...complete, OIDC_ISSUER_URL: 'http://id.example.com' })).toThrow(/https/);
  });

  it('need the client id and secret with the issuer', () => {
    expect(() => settings({ OIDC_ISSUER_URL: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
  });

  it('refuse a role-group mapping that is not value=name pairs', () => {
    expect(() => parseSettings({ OIDC_ROLE_GROUPS: 'platform-ops' })).toThrow(/OIDC_ROLE_GROUPS/);
  });
});
