import { isStale, type Refusal } from './client';

const refusal = (status: number, error: string): Refusal => ({ status, error, message: error, issues: [] });
const sorted = (answers: (readonly [number, string])[]) =>
  answers.filter(([status, error]) => isStale(refusal(status, error))).map(([, error]) => error);

it('tells a refusal for the state of what was acted on, or for an action already recorded, from one the form can still mend', () => {
  // What the console's decisions (queues, add-on actions and editor) can be answered.
  const stale = [
    [422, 'credential_not_pending'],
    [422, 'credential_not_active'],
    [422, 'scope_not_pending'],
    [422, 'extension_not_requested'],
    [422, 'addon_already_installed'],
    [422, 'addon_already_disabled'],
    [422, 'addon_not_installed'],
    [404, 'member_not_found'],
    [409, 'stream_deleted'],
    [503, 'recorded_not_visible_yet'],
  ] as const;
  const mendable = [
    [422, 'validation_failed'],
    [422, 'invalid_reason'],
    [422, 'invalid_page_roles'],
    [422, 'page_roles_outdated'],
    [422, 'expiry_in_past'],
    [422, 'malformed_json'],
    [409, 'concurrent_modification'],
    [503, 'read_model_lagging'],
    [403, 'permission_denied'],
  ] as const;
  expect(sorted([...stale])).toEqual(stale.map(([, error]) => error));
  expect(sorted([...mendable])).toEqual([]);
});
