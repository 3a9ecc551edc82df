import { ConfigurationError, parseSettings } from '../../src/config';

describe('ADMIN_PASSWORD', () => {
  it('is unset by default and when blank, as docker compose passes an unset variable', () => {
    expect(parseSettings({}).ADMIN_PASSWORD).toBeUndefined();
    expect(parseSettings({ ADMIN_PASSWORD: '' }).ADMIN_PASSWORD).toBeUndefined();
  });

  it('is taken when it follows the password rules', () => {
    expect(parseSettings({ ADMIN_PASSWORD: 'change-me-now' }).ADMIN_PASSWORD).toBe('change-me-now');
  });

  it('stops the start with a message naming the variable, never echoing the value', () => {
    let caught: unknown;
    try {
      parseSettings({ ADMIN_PASSWORD: 'abc12' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigurationError);
    expect((caught as Error).message).toMatch(/ADMIN_PASSWORD: password must be at least 6 characters/);
    expect((caught as Error).message).not.toContain('abc12');
  });
});
