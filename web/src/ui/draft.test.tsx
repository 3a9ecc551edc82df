import { fireEvent, render, screen } from '@testing-library/preact';
import { useDraft } from './draft';
import { signOut } from './sign-in';
import { envelope, serviceStandIn } from '../../test/envelope';

function Reason() {
  const [reason, setReason] = useDraft('reason');
  return (
    <label>
      Reason
      <input value={reason} onInput={(e) => setReason((e.currentTarget as HTMLInputElement).value)} />
    </label>
  );
}

const typed = () => (screen.getByLabelText('Reason') as HTMLInputElement).value;

beforeEach(() => {
  sessionStorage.clear();
  history.replaceState(null, '', '/ui/admin/scopes');
});

it('keeps a typed reason across a new rendering of the screen, as a session that ends meanwhile', () => {
  const first = render(<Reason />);
  fireEvent.input(screen.getByLabelText('Reason'), { target: { value: 'the purpose is not said' } });
  first.unmount();
  render(<Reason />);
  expect(typed()).toBe('the purpose is not said');
});

it.each(['admin', 'developer'] as const)(
  'forgets every draft at a sign-out of the %s, for whoever signs in next in this tab',
  async (realm) => {
    serviceStandIn(() => envelope(200, { code: 0, message: 'signed out', data: {} }));
    sessionStorage.setItem('other', 'kept');
    const first = render(<Reason />);
    fireEvent.input(screen.getByLabelText('Reason'), { target: { value: 'confidential: the partner is late' } });
    first.unmount();
    await signOut(realm);

    history.replaceState(null, '', '/ui/admin/scopes');
    render(<Reason />);
    expect(typed()).toBe('');
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('confidential');
    expect(sessionStorage.getItem('other')).toBe('kept');
  },
);

it('forgets them even when the service does not answer the sign-out', async () => {
  serviceStandIn(() => envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } }));
  const first = render(<Reason />);
  fireEvent.input(screen.getByLabelText('Reason'), { target: { value: 'half a sentence' } });
  first.unmount();
  await signOut('admin');
  history.replaceState(null, '', '/ui/admin/scopes');
  render(<Reason />);
  expect(typed()).toBe('');
});
