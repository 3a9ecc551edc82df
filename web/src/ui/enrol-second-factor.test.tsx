import { fireEvent, render, screen } from '@testing-library/preact';
import { DeveloperArea } from '../developer/area';
import { credentialOf } from '../../test/credential';
import { envelope, serviceStandIn } from '../../test/envelope';

const dashboard = {
  member: { id: 7, username: 'alice', nickname: '', email: null, mobile: null },
  credential: credentialOf(),
  scopes: [],
};
const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });

it('takes a member the policy holds to the authenticator-app card, saying why, and on once it is set up', async () => {
  let enrolled = false;
  serviceStandIn(
    (url) => {
      const path = url.pathname.replace('/api/v1/developer', '');
      if (path === '/2fa') return ok({ totp: enrolled, recovery_codes_remaining: enrolled ? 10 : 0 });
      if (path === '/2fa/totp')
        return ok({ secret: 'JBSWY3DPEHPK3PXP', otpauth_uri: 'otpauth://totp/p:alice?secret=JBSWY3DPEHPK3PXP' });
      if (path === '/2fa/totp/confirm') {
        enrolled = true;
        return ok({ recovery_codes: ['rc-1', 'rc-2'] });
      }
      if (!enrolled)
        return envelope(403, {
          code: 403,
          message: 'this account must enrol a second factor first',
          data: { error: 'second_factor_enrolment_required' },
        });
      return ok(dashboard);
    },
    false,
    true,
  );
  render(<DeveloperArea path="/developer" />);
  expect(await screen.findByRole('heading', { name: 'Set up a second factor' })).not.toBeNull();
  expect((await screen.findByRole('alert')).textContent).toMatch(/requires a second factor for your account/);
  expect(screen.queryByRole('navigation', { name: 'Developer center' })).toBeNull();
  fireEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
  fireEvent.input(await screen.findByLabelText('Code from the app'), { target: { value: '123456' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Turn on' }).closest('form')!);
  fireEvent.click(await screen.findByLabelText('I have stored the recovery codes somewhere safe'));
  fireEvent.click(screen.getByRole('button', { name: 'Done: hide the recovery codes' }));
  expect(await screen.findByRole('heading', { name: 'Hello, alice' })).not.toBeNull();
});
