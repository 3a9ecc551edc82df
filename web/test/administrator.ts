import type { Schemas } from '../src/api/client';

/**
 * An administrator as GET /administrators lists it: by default an enabled one of role group 1 who
 * signs in with a password alone; `overrides` set what a test is about. Typed by the contract, so a
 * field the list gains fails the type check here, not one screen's test at a time.
 */
export const administratorOf = (
  overrides: Partial<Schemas['AdministratorAccount']> & Pick<Schemas['AdministratorAccount'], 'id' | 'username'>,
): Schemas['AdministratorAccount'] => ({
  is_super: false,
  role_id: 1,
  email: null,
  enabled: true,
  single_sign_on: false,
  second_factors: { passkeys: 0, totp: false },
  ...overrides,
});
