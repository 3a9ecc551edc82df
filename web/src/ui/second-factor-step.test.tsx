import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { envelope, serviceStandIn } from '../../test/envelope';
import { SecondFactorStep } from './second-factor-step';

// The browser's authenticator: jsdom has none, so it signs whatever challenge it is given.
jest.mock('@simplewebauthn/browser', () => ({
  startAuthentication: jest.fn(async ({ optionsJSON }: { optionsJSON: { challenge: string } }) => ({
    id: 'cred-1',
    rawId: 'cred-1',
    type: 'public-key',
    clientExtensionResults: {},
    response: { clientDataJSON: optionsJSON.challenge, authenticatorData: 'ad', signature: 'sig' },
  })),
}));

const OPTIONS = { challenge: 'challenge-1', allowCredentials: [{ id: 'cred-1', type: 'public-key' }] };
const ok = (data: unknown) => envelope(200, { code: 0, message: 'ok', data });
const noPasskey = () =>
  envelope(404, { code: 404, message: 'this account has no passkey', data: { error: 'no_passkey' } });

it('offers a passkey to an account that holds one, and signs in with its signature', async () => {
  const calls = serviceStandIn((url) => {
    if (url.pathname.endsWith('/second-factor/passkey/options')) return ok(OPTIONS);
    if (url.pathname.endsWith('/second-factor/passkey')) return ok({ id: 7, username: 'alice' });
    return noPasskey();
  });
  const signedIn = jest.fn();
  render(<SecondFactorStep realm="developer" onSignedIn={signedIn} onStartOver={() => {}} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
  await waitFor(() => expect(signedIn).toHaveBeenCalledTimes(1));
  const sent = calls.find((r) => new URL(r.url).pathname === '/api/v1/developer/login/second-factor/passkey')!;
  expect((await sent.json()).response.response.clientDataJSON).toBe('challenge-1');
});

it('offers no passkey to an account without one, and still takes the app’s code', async () => {
  const calls = serviceStandIn((url) => {
    if (url.pathname.endsWith('/admin/login/second-factor')) return ok({ id: 2, username: 'carol' });
    return noPasskey();
  });
  const signedIn = jest.fn();
  render(<SecondFactorStep realm="admin" onSignedIn={signedIn} onStartOver={() => {}} />);
  await waitFor(() =>
    expect(calls.some((r) => r.url.endsWith('/admin/login/second-factor/passkey/options'))).toBe(true),
  );
  expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
  fireEvent.input(screen.getByLabelText('Code'), { target: { value: '123456' } });
  fireEvent.submit(screen.getByRole('button', { name: 'Verify' }).closest('form')!);
  await waitFor(() => expect(signedIn).toHaveBeenCalledTimes(1));
  expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
});

it('says why a passkey was not accepted, and lets the person try again', async () => {
  let challenges = 0;
  serviceStandIn((url) => {
    if (url.pathname.endsWith('/second-factor/passkey/options'))
      return ok({ ...OPTIONS, challenge: `c-${++challenges}` });
    return envelope(401, {
      code: 401,
      message: 'the passkey was not accepted',
      data: { error: 'passkey_not_accepted' },
    });
  });
  const signedIn = jest.fn();
  render(<SecondFactorStep realm="developer" onSignedIn={signedIn} onStartOver={() => {}} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
  expect((await screen.findByRole('alert')).textContent).toBe('the passkey was not accepted');
  await waitFor(() => expect(challenges).toBe(2));
  expect(signedIn).not.toHaveBeenCalled();
  expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeTruthy();
});
