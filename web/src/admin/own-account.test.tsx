import { fireEvent, render, screen, within } from '@testing-library/preact';
import { OwnAccount } from './own-account';
import { envelope, serviceStandIn } from '../../test/envelope';

function change(current: string, next: string, again = next) {
  fireEvent.input(screen.getByLabelText('Current password'), { target: { value: current } });
  fireEvent.input(screen.getByLabelText('New password'), { target: { value: next } });
  fireEvent.input(screen.getByLabelText('New password again'), { target: { value: again } });
  fireEvent.submit(screen.getByRole('button', { name: 'Change password' }).closest('form')!);
}

it('changes the password with the current one, says what ended, and empties the form', async () => {
  const calls = serviceStandIn(() =>
    envelope(200, { code: 0, message: 'password changed; 2 other sessions ended', data: null }),
  );
  render(<OwnAccount username="carol" />);
  expect(screen.getByText('carol').tagName).toBe('STRONG');
  change('old-secret', 'new-secret');
  const done = await screen.findByText('Password changed; 2 other sessions ended.');
  expect(done.getAttribute('role')).toBe('status');
  const sent = calls.find((request) => request.method === 'POST')!;
  expect(new URL(sent.url).pathname).toBe('/api/v1/admin/password');
  expect(await sent.json()).toEqual({ current_password: 'old-secret', new_password: 'new-secret' });
  expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
});

it('shows a wrong current password in words, and keeps what was typed', async () => {
  serviceStandIn(() =>
    envelope(422, {
      code: 422,
      message: 'the current password is wrong: nothing changed',
      data: { error: 'wrong_current_password' },
    }),
  );
  render(<OwnAccount username="carol" />);
  change('not-it', 'new-secret');
  expect((await screen.findByRole('alert')).textContent).toBe('the current password is wrong: nothing changed');
  expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe('new-secret');
});

it('tells when to try again after too many wrong current passwords', async () => {
  const message = 'too many wrong current passwords for this account: retry in 15 min';
  serviceStandIn(() => envelope(429, { code: 429, message, data: { error: 'too_many_password_failures' } }));
  render(<OwnAccount username="carol" />);
  change('not-it', 'new-secret');
  expect((await screen.findByRole('alert')).textContent).toBe(message);
});

it('sends nothing while the new password and its repetition differ', async () => {
  const calls = serviceStandIn(() =>
    envelope(200, { code: 0, message: 'password changed; 0 other sessions ended', data: null }),
  );
  render(<OwnAccount username="carol" />);
  change('old-secret', 'new-secret', 'new-secreT');
  expect((await screen.findByRole('alert')).textContent).toBe(
    'The two passwords differ: type the same password twice.',
  );
  expect(calls.filter((request) => request.method === 'POST')).toEqual([]);
});

it('lists the passkeys by name and removes one, saying so', async () => {
  const calls = serviceStandIn(
    (url, request) =>
      request.method === 'GET'
        ? envelope(200, {
            code: 0,
            message: 'ok',
            data: [{ id: '3f1c0e7a-0000-4000-8000-000000000001', name: 'laptop' }],
          })
        : envelope(200, { code: 0, message: 'passkey removed', data: null }),
    true,
  );
  render(<OwnAccount username="carol" />);
  fireEvent.click(await screen.findByRole('button', { name: 'Remove passkey laptop…' }));
  // Asked first: removing a passkey cannot be undone.
  expect(calls.filter((request) => request.method === 'DELETE')).toEqual([]);
  fireEvent.click(
    within(screen.getByRole('dialog', { name: 'Remove the passkey laptop?' })).getByRole('button', { name: 'Remove' }),
  );
  expect(await screen.findByText('Passkey "laptop" removed.')).toBeTruthy();
  const removal = calls.find((request) => request.method === 'DELETE')!;
  expect(new URL(removal.url).pathname).toBe('/api/v1/admin/passkeys/3f1c0e7a-0000-4000-8000-000000000001');
});
