import { render, screen } from '@testing-library/preact';
import { application, envelope, FUTURE, PAST } from './applications.fixture';
import { CredentialQueue } from './credential-queue';

/** The service answering one list of applications, whatever the filter. */
function listing(list: object[]) {
  globalThis.fetch = jest.fn(async () =>
    envelope(200, { code: 0, message: 'ok', data: { list, next: null } }),
  ) as typeof fetch;
}

describe("status and expiry, in the words of the member's dashboard", () => {
  // Every status: under "pending" (the default) a row has no key columns.
  beforeEach(() => history.replaceState(null, '', '/ui/admin/credentials?status=all'));
  afterEach(() => history.replaceState(null, '', '/ui/admin/credentials'));
  const rowOf = async (username: string) =>
    (await screen.findByRole('cell', { name: new RegExp(`^${username} `) })).closest('tr')!;
  const cell = (row: HTMLElement, label: string) => row.querySelector(`td[data-label="${label}"]`)!;

  it('says "active, expired" for an active key past its expiry, as the dashboard does, and keeps the date', async () => {
    listing([
      application(7, 'alice', 'active', { expires_at: PAST }),
      application(8, 'bob', 'active', { expires_at: FUTURE }),
      application(9, 'carol', 'approved', { expires_at: PAST }),
    ]);
    render(<CredentialQueue />);
    const alice = await rowOf('alice');
    expect(cell(alice, 'Status').querySelector('.status')!.textContent).toBe('active, expired');
    expect(cell(alice, 'Status').querySelector('.status')!.className).toBe('status expired');
    expect(cell(alice, 'Expires').querySelector('time')!.getAttribute('datetime')).toBe(PAST);
    expect(cell(await rowOf('bob'), 'Status').querySelector('.status')!.textContent).toBe('active');
    expect(cell(await rowOf('carol'), 'Status').querySelector('.status')!.textContent).toBe('approved, expired');
  });

  it('tells no expiry for an application that has no key: pending, rejected or revoked', async () => {
    listing([
      application(7, 'alice', 'pending'),
      application(8, 'bob', 'rejected', { reject_reason: 'unknown company' }),
      application(9, 'carol', 'revoked', { expires_at: FUTURE, revoke_reason: 'leaked' }),
      application(10, 'dave', 'active'),
    ]);
    render(<CredentialQueue />);
    for (const username of ['alice', 'bob', 'carol'])
      expect(cell(await rowOf(username), 'Expires').textContent).toBe('—');
    // A key approved without an expiry does live forever.
    expect(cell(await rowOf('dave'), 'Expires').textContent).toBe('never');
  });
});
