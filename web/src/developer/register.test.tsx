import { fireEvent, render, screen } from '@testing-library/preact';
import { Register } from './register';
import { envelope } from '../../test/envelope';

/** The service refusing the registration with this envelope. */
function refusing(status: number, body: unknown) {
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    return envelope(status, body);
  }) as typeof fetch;
}

/** A refusal naming two fields: a short username, and neither e-mail nor mobile. */
const TWO_FIELDS_REFUSED = {
  code: 422,
  message: 'username: username must be 3 to 32 characters; email: give at least one of email and mobile',
  data: {
    error: 'validation_failed',
    issues: [
      { path: 'username', message: 'Username must be 3 to 32 characters.' },
      { path: 'email', message: 'Give at least one of email and mobile.' },
    ],
  },
};

const submit = () => fireEvent.submit(screen.getByRole('button', { name: 'Register' }).closest('form')!);

it('says one of e-mail and mobile is needed, instead of calling both optional', () => {
  render(<Register onRegistered={() => {}} />);
  const email = screen.getByLabelText('E-mail');
  const mobile = screen.getByLabelText('Mobile', { exact: false });
  expect(document.querySelector('label[for="field-email"]')!.textContent).toBe('E-mail');
  expect(document.querySelector('label[for="field-mobile"]')!.textContent).toBe('Mobile');
  expect(screen.getByText('E-mail or mobile (at least one)').tagName).toBe('LEGEND');
  for (const input of [email, mobile]) {
    expect(input.getAttribute('aria-describedby')).toContain('contact-rule');
  }
  expect(document.getElementById('contact-rule')!.textContent).toMatch(
    /Give an e-mail address or a mobile number, or both/,
  );
  expect(document.querySelector('label[for="field-nickname"]')!.textContent).toBe('Nickname (optional)');
});

it("shows each field's refusal at the field only, not again in the box under the form", async () => {
  refusing(422, TWO_FIELDS_REFUSED);
  render(<Register onRegistered={() => {}} />);
  submit();
  expect(await screen.findByText('Username must be 3 to 32 characters.')).not.toBeNull();
  expect(screen.getAllByText(/Give at least one of email and mobile/)).toHaveLength(1);
  expect(screen.getAllByText(/Username must be 3 to 32 characters/)).toHaveLength(1);
  expect(screen.getByRole('alert').textContent).toBe('Correct the fields marked above, then register again.');
  expect(screen.getByLabelText('Username', { exact: false }).getAttribute('aria-invalid')).toBe('true');
});

it('shows a taken username at the Username field', async () => {
  refusing(422, {
    code: 422,
    message: 'the username "alice" is already registered: choose another one',
    data: {
      error: 'username_taken',
      issues: [{ path: 'username', message: 'the username "alice" is already registered: choose another one' }],
    },
  });
  render(<Register onRegistered={() => {}} />);
  submit();
  const issue = await screen.findByText('The username "alice" is already registered: choose another one.');
  expect(issue.id).toBe('field-username-issue');
  expect(screen.getByLabelText('Username', { exact: false }).getAttribute('aria-invalid')).toBe('true');
  expect(screen.getAllByText(/already registered/)).toHaveLength(1);
});

it('a refusal that names no field is shown under the form', async () => {
  refusing(429, {
    code: 429,
    message: 'too many registrations from this address: try again in an hour',
    data: { error: 'rate_limited' },
  });
  render(<Register onRegistered={() => {}} />);
  submit();
  expect((await screen.findByRole('alert')).textContent).toBe(
    'too many registrations from this address: try again in an hour',
  );
});

it("clears a field's refusal once the field is changed, and the pair's once either of e-mail and mobile is", async () => {
  refusing(422, TWO_FIELDS_REFUSED);
  render(<Register onRegistered={() => {}} />);
  submit();
  await screen.findByText('Username must be 3 to 32 characters.');
  fireEvent.input(screen.getByLabelText('Username', { exact: false }), { target: { value: 'alice' } });
  expect(screen.queryByText('Username must be 3 to 32 characters.')).toBeNull();
  expect(screen.getByLabelText('Username', { exact: false }).getAttribute('aria-invalid')).toBeNull();
  expect(screen.getByText('Give at least one of email and mobile.')).not.toBeNull();
  fireEvent.input(screen.getByLabelText('Mobile', { exact: false }), { target: { value: '+4912345678' } });
  expect(screen.queryByText('Give at least one of email and mobile.')).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
});
