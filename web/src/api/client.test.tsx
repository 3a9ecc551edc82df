import { isStale, type Refusal } from './client';

const refusal = (status: number, error: string): Refusal => ({ status, error, message: error, issues: [] });

it('tells a refusal for the state of what was acted on from one for what was typed', () => {
  const stale = [
    [422, 'credential_not_pending'],
    [422, 'scope_not_pending'],
    [422, 'extension_not_requested'],
    [422, 'addon_already_installed'],
    [422, 'addon_not_installed'],
    [422, 'credential_expired'],
    [404, 'not_found'],
    [409, 'concurrent_modification'],
  ] as const;
  const typed = [
    [422, 'validation_failed'],
    [422, 'invalid_page_roles'],
    [422, 'page_roles_outdated'],
    [422, 'expiry_in_past'],
    [422, 'malformed_json'],
    [403, 'permission_denied'],
  ] as const;
  expect(stale.filter(([status, error]) => !isStale(refusal(status, error)))).toEqual([]);
  expect(typed.filter(([status, error]) => isStale(refusal(status, error)))).toEqual([]);
});
