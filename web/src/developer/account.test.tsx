import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { AccountPage } from './account';
import { envelope, serviceStandIn } from '../../test/envelope';

const ok = (data: unknown, message = 'ok') => envelope(200, { code: 0, message, data });
const ACCOUNT = {
  id: 7,
  username: 'alice',
  nickname: 'Al',
  email: 'alice@example.com',
  pending_email: null,
  mobile: null,
  password_reset_by: null,
};

function service(answers: Record<string, () => Response>) {
  return serviceStandIn(
    (url, request) =>
      answers[`${request.method} ${url.pathname.replace('/api/v1', '')}`]?.() ??
      envelope(404, { code: 404, message: 'no', data: { error: 'not_found' } }),
  );
}

it('shows the profile and saves a new address as pending, saying where the link went', async () => {
  const pending = { ...ACCOUNT, pending_email: 'new@example.com' };
  const calls = service({
    'GET /developer/account': () => ok(ACCOUNT),
    'PUT /developer/account': () => ok(pending, 'saved: follow the link mailed to new@example.com to use it'),
  });
  render(<AccountPage />);
  const email = (await screen.findByLabelText('E-mail')) as HTMLInputElement;
  expect(email.value).toBe('alice@example.com');
  expect((screen.getByLabelText('Nickname', { exact: false }) as HTMLInputElement).value).toBe('Al');
  expect(screen.queryByLabelText('Your current password')).toBeNull();
  fireEvent.input(email, { target: { value: 'new@example.com' } });
  fireEvent.input(screen.getByLabelText('Your current password'), { target: { value: 'my-secret' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Save profile' }).closest('form')!);
  expect(await screen.findByText('Saved: follow the link mailed to new@example.com to use it.')).not.toBeNull();
  expect(screen.getByText(/Waiting for confirmation/).textContent).toMatch(/until then mail goes to alice@example.com/);
  expect(await calls.find((request) => request.method === 'PUT')!.json()).toEqual({
    nickname: 'Al',
    email: 'new@example.com',
    mobile: '',
    current_password: 'my-secret',
  });
});

it('says in words why a new address was refused: no password, a wrong one, too many changes', async () => {
  const refusals: [string, string][] = [
    ['current_password_required', 'a new e-mail address needs your current password: nothing changed'],
    ['wrong_current_password', 'the current password is wrong: nothing changed'],
    ['too_many_email_changes', 'at most 3 e-mail address changes a day: retry in 20 h'],
  ];
  let next = 0;
  service({
    'GET /developer/account': () => ok(ACCOUNT),
    'PUT /developer/account': () => {
      const [error, message] = refusals[next++]!;
      const status = error === 'too_many_email_changes' ? 429 : 422;
      return envelope(status, { code: status, message, data: { error } });
    },
  });
  render(<AccountPage />);
  fireEvent.input(await screen.findByLabelText('E-mail'), { target: { value: 'new@example.com' } });
  const form = screen.getByRole('button', { name: 'Save profile' }).closest('form')!;
  for (const [, message] of refusals) {
    fireEvent.submit(form);
    expect((await screen.findByText(message)).getAttribute('role')).toBe('alert');
  }
});

it("tells of an administrator's reset until the member acknowledges it", async () => {
  const calls = service({
    'GET /developer/account': () => ok({ ...ACCOUNT, password_reset_by: { admin_id: 3 } }),
    'POST /developer/account/acknowledge-reset': () => ok(ACCOUNT, 'acknowledged'),
  });
  render(<AccountPage />);
  expect((await screen.findByText(/Administrator #3 gave your account a one-time password/)).textContent).toMatch(
    /tell the platform team/,
  );
  fireEvent.click(screen.getByRole('button', { name: 'I have seen this' }));
  await waitFor(() => expect(screen.queryByText(/Administrator #3/)).toBeNull());
  expect(
    calls.some((request) => request.method === 'POST' && request.url.endsWith('/developer/account/acknowledge-reset')),
  ).toBe(true);
});

it('changes the password and says how many other sessions ended; a wrong current password is said at the form', async () => {
  let wrong = true;
  service({
    'GET /developer/account': () => ok(ACCOUNT),
    'POST /developer/password': () =>
      wrong
        ? envelope(422, {
            code: 422,
            message: 'the current password is wrong: nothing changed',
            data: { error: 'wrong_current_password' },
          })
        : ok({ sessions_ended: 2 }, 'password changed; 2 other sessions signed out'),
  });
  render(<AccountPage />);
  fireEvent.input(await screen.findByLabelText('Current password'), { target: { value: 'oops' } });
  fireEvent.input(screen.getByLabelText('New password', { exact: false }), { target: { value: 'brand-new' } });
  const form = screen.getByRole('button', { name: 'Change password' }).closest('form')!;
  fireEvent.submit(form);
  expect((await screen.findByRole('alert')).textContent).toBe('the current password is wrong: nothing changed');
  wrong = false;
  fireEvent.submit(form);
  expect(await screen.findByText('Password changed; 2 other sessions signed out.')).not.toBeNull();
  expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
});

it('signs out everywhere else', async () => {
  const calls = service({
    'GET /developer/account': () => ok(ACCOUNT),
    'POST /developer/sessions/end-others': () => ok({ sessions_ended: 3 }),
  });
  render(<AccountPage />);
  fireEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere else' }));
  expect(await screen.findByText('Signed out everywhere else: 3 other sessions ended.')).not.toBeNull();
  expect(
    calls.some((request) => request.method === 'POST' && request.url.endsWith('/developer/sessions/end-others')),
  ).toBe(true);
});

it('drops what a refusal said of a field once that field is changed, and keeps what it said of the others', async () => {
  const issues = [
    { path: 'nickname', message: 'Nickname is at most 64 characters.' },
    { path: 'email', message: 'E-mail is not an e-mail address.' },
  ];
  service({
    'GET /developer/account': () => ok(ACCOUNT),
    'PUT /developer/account': () =>
      envelope(422, { code: 422, message: 'validation failed', data: { error: 'validation_failed', issues } }),
  });
  render(<AccountPage />);
  const email = await screen.findByLabelText('E-mail');
  const nickname = screen.getByLabelText('Nickname', { exact: false });
  fireEvent.submit(screen.getByRole('button', { name: 'Save profile' }).closest('form')!);
  expect(await screen.findByText('E-mail is not an e-mail address.')).not.toBeNull();
  expect(email.getAttribute('aria-invalid')).toBe('true');

  fireEvent.input(email, { target: { value: 'alice@example.org' } });
  expect(screen.queryByText('E-mail is not an e-mail address.')).toBeNull();
  expect(email.getAttribute('aria-invalid')).toBeNull();
  expect(nickname.getAttribute('aria-invalid')).toBe('true');
  expect(screen.getByText('Nickname is at most 64 characters.')).not.toBeNull();
});

it('drops the issue of the new password once it is changed', async () => {
  const issues = [{ path: 'new_password', message: 'New password must be 6 to 128 characters.' }];
  service({
    'GET /developer/account': () => ok(ACCOUNT),
    'POST /developer/password': () =>
      envelope(422, { code: 422, message: 'validation failed', data: { error: 'validation_failed', issues } }),
  });
  render(<AccountPage />);
  const fresh = (await screen.findByLabelText('New password', { exact: false })) as HTMLInputElement;
  fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form')!);
  expect(await screen.findByText('New password must be 6 to 128 characters.')).not.toBeNull();
  fireEvent.input(fresh, { target: { value: 'long-enough' } });
  expect(screen.queryByText('New password must be 6 to 128 characters.')).toBeNull();
  expect(fresh.getAttribute('aria-invalid')).toBeNull();
});

it('says in words that the account changed too often in a minute, on every form of the page', async () => {
  const message = 'too many changes to this account in a minute: retry in 42 s';
  const tooMany = () => envelope(429, { code: 429, message, data: { error: 'too_many_changes' } });
  service({
    'GET /developer/account': () => ok(ACCOUNT),
    'PUT /developer/account': tooMany,
    'POST /developer/password': tooMany,
    'POST /developer/sessions/end-others': tooMany,
  });
  render(<AccountPage />);
  fireEvent.input(await screen.findByLabelText(/^Nickname/), { target: { value: 'Alice' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Save profile' }).closest('form')!);
  expect((await screen.findByText(message)).getAttribute('role')).toBe('alert');

  fireEvent.input(screen.getByLabelText('Current password'), { target: { value: 'my-secret' } });
  fireEvent.input(screen.getByLabelText('New password', { exact: false }), { target: { value: 'brand-new' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form')!);
  await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));

  fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
  await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(3));
  expect((screen.getByLabelText(/^Nickname/) as HTMLInputElement).value).toBe('Alice');
});
