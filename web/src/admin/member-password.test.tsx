import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { MemberPassword } from './member-password';
import { envelope, serviceStandIn } from '../../test/envelope';

const writeText = jest.fn(async () => {});
beforeAll(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true }));

const ask = (id: string) => {
  fireEvent.input(screen.getByLabelText(/^Member id/), { target: { value: id } });
  fireEvent.click(screen.getByRole('button', { name: 'Give a one-time password' }));
};

describe("a member's password", () => {
  it('gives a one-time password after asking, and shows it once behind the "I have stored it" gate', async () => {
    const calls = serviceStandIn(() =>
      envelope(200, {
        code: 0,
        message: 'ok',
        data: { member_id: 7, username: 'alice', password: 'Member-OneTime_1234567' },
      }),
    );
    render(<MemberPassword />);
    expect(screen.getByLabelText(/^Member id/).getAttribute('aria-describedby')).toBe('field-member_id-hint');
    expect(screen.getByText(/credential queue shows it as #id beside the username/)).not.toBeNull();
    ask('#7');
    const dialog = await screen.findByRole('dialog', { name: 'Give member 7 a one-time password?' });
    expect(calls.some((c) => c.url.includes('/members/'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Give a one-time password' }));

    expect((await screen.findByTestId('member-one-time-password')).textContent).toBe('Member-OneTime_1234567');
    const sent = calls.find((c) => c.url.endsWith('/members/7/password-reset'))!;
    expect([sent.method, sent.headers.get('X-CSRF-Token')]).toEqual(['POST', 'token-1']);
    expect(screen.getByRole('heading', { name: 'One-time password of alice' })).not.toBeNull();
    const done = screen.getByRole('button', { name: 'Done: hide the password' }) as HTMLButtonElement;
    expect(done.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have stored the password somewhere safe'));
    fireEvent.click(done);
    await waitFor(() => expect(screen.queryByTestId('member-one-time-password')).toBeNull());
    expect(screen.queryByText('Member-OneTime_1234567')).toBeNull();
    expect(screen.getByRole('heading', { name: "A member's password" })).not.toBeNull();
  });

  it('sends nothing when the question is answered no, or the id is not a number', async () => {
    const calls = serviceStandIn(() => envelope(500, {}));
    render(<MemberPassword />);
    ask('alice');
    expect(
      (await screen.findByText(/A member id is a positive whole number\. The credential queue/)).closest('.field'),
    ).not.toBeNull();
    ask('7');
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([]);
  });

  it('says in words that no member has the id, and shows no password', async () => {
    serviceStandIn(() =>
      envelope(404, { code: 404, message: 'there is no member 99', data: { error: 'member_not_found' } }),
    );
    render(<MemberPassword />);
    ask('99');
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Give a one-time password' }),
    );
    const refusal = await screen.findByRole('alert');
    expect(refusal.textContent).toBe(
      'No member has the id 99. The credential queue shows it as #id beside the username; the audit finds it from the username.',
    );
    expect(screen.queryByTestId('member-one-time-password')).toBeNull();
    // Another id typed: the refusal was about the one before.
    fireEvent.input(screen.getByLabelText(/^Member id/), { target: { value: '9' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});
