import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { envelope, serviceStandIn } from '../../test/envelope';
import { TotpCard } from './totp';

const CODES = Array.from({ length: 10 }, (_, i) => `rc-${i}000-aaaa`);
const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });

/** A service whose account has TOTP on or off, as the test's actions leave it. */
function service(
  start: { totp: boolean; recovery_codes_remaining: number },
  confirm = () => ok({ recovery_codes: CODES }),
) {
  let status = start;
  return serviceStandIn(
    async (url, request) => {
      const path = url.pathname.replace('/api/v1/developer', '');
      if (path === '/2fa' && request.method === 'GET') return ok(status);
      if (path === '/2fa/totp')
        return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/platform:alice?secret=JBSWY3DPEHPK3PXP' });
      if (path === '/2fa/totp/confirm') {
        const answer = confirm();
        if (answer.ok) status = { totp: true, recovery_codes_remaining: 10 };
        return answer;
      }
      if (path === '/2fa' && request.method === 'DELETE') {
        status = { totp: false, recovery_codes_remaining: 0 };
        return ok(null);
      }
      return envelope(404, { code: 404, message: 'not here', data: { error: 'not_found' } });
    },
    false,
    true,
  );
}

it('sets up an authenticator app: QR code and key, the code confirms, the recovery codes are shown once', async () => {
  const calls = service({ totp: false, recovery_codes_remaining: 0 });
  const done: string[] = [];
  render(<TotpCard side="developer" onDone={(m) => done.push(m)} />);
  expect((await screen.findByTestId('totp-status')).textContent).toMatch(/^Off/);
  fireEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
  const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' });
  expect(qr.querySelector('svg')).not.toBeNull();
  expect(screen.getByTestId('totp-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
  fireEvent.input(screen.getByLabelText('Code from the app'), { target: { value: ' 123456 ' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Turn on' }).closest('form')!);
  expect((await screen.findByTestId('recovery-codes')).textContent).toBe(CODES.join('\n'));
  expect(screen.getByText(/shown once, now/)).toBeTruthy();
  expect(screen.getByTestId('totp-status').textContent).toMatch(/^On/);
  const sent = calls.find((r) => r.url.endsWith('/2fa/totp/confirm'))!;
  expect(await sent.json()).toEqual({ code: '123456' });
  expect(done).toEqual(['Authenticator app turned on.']);
  fireEvent.click(screen.getByLabelText('I have stored the recovery codes somewhere safe'));
  fireEvent.click(screen.getByRole('button', { name: 'Done: hide the recovery codes' }));
  expect((await screen.findByText(/10 of 10 recovery codes left/)).textContent).toMatch(/^On/);
  expect(screen.queryByTestId('recovery-codes')).toBeNull();
});

it('keeps the enrolment open and says why when the code is wrong', async () => {
  const message = 'the code is not the one the app shows now: check the phone’s clock and type the current code';
  service({ totp: false, recovery_codes_remaining: 0 }, () =>
    envelope(422, { code: 422, message, data: { error: 'invalid_second_factor' } }),
  );
  render(<TotpCard side="developer" onDone={() => {}} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
  fireEvent.input(await screen.findByLabelText('Code from the app'), { target: { value: '000000' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Turn on' }).closest('form')!);
  expect((await screen.findByRole('alert')).textContent).toBe(message);
  expect(screen.getByTestId('totp-secret')).toBeTruthy();
  expect(screen.queryByTestId('recovery-codes')).toBeNull();
});

it('turns the app off given the password and a recovery code', async () => {
  const calls = service({ totp: true, recovery_codes_remaining: 7 });
  const done: string[] = [];
  render(<TotpCard side="developer" onDone={(m) => done.push(m)} />);
  expect((await screen.findByTestId('totp-status')).textContent).toContain('7 of 10 recovery codes left');
  fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
  fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
  fireEvent.input(screen.getByLabelText('Your password'), { target: { value: 'hunter22' } });
  fireEvent.input(screen.getByLabelText('A recovery code'), { target: { value: 'rc-1000-aaaa' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Turn off the authenticator app' }).closest('form')!);
  await waitFor(() => expect(screen.getByTestId('totp-status').textContent).toMatch(/^Off/));
  const sent = calls.find((r) => r.method === 'DELETE')!;
  expect(await sent.json()).toEqual({ password: 'hunter22', recovery_code: 'rc-1000-aaaa' });
  expect(done).toEqual(['Authenticator app turned off.']);
});

it('says why when the service requires a second factor the account lacks', async () => {
  service({ totp: false, recovery_codes_remaining: 0 });
  render(<TotpCard side="developer" onDone={() => {}} required />);
  expect((await screen.findByRole('alert')).textContent).toMatch(/requires a second factor for your account/);
  await waitFor(() => expect(document.activeElement?.id).toBe('totp-title'));
});
