import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { Rotate } from './rotate';
import { envelope, serviceStandIn } from '../../test/envelope';

/** The service as the rotation meets it: a CSRF token, then the new key. */
function service() {
  return serviceStandIn(() =>
    envelope(200, {
      code: 0,
      message: 'rotated',
      data: {
        apiid: 'ak_test0000000000000000',
        apikey: 'sk_rotated-key',
        previous_key_valid_until: '2026-11-23T11:00:00.000Z',
      },
    }),
  );
}

const rotations = (calls: Request[]) => calls.filter((c) => c.url.endsWith('/developer/rotate'));

describe('rotating the key', () => {
  afterEach(() => jest.restoreAllMocks());

  it('keeps the old key an hour by default', () => {
    service();
    render(<Rotate onRotated={() => {}} />);
    const grace = screen.getByLabelText('Grace period for the old key') as HTMLSelectElement;
    expect(grace.value).toBe('3600');
    expect(grace.selectedOptions[0]!.textContent).toBe('one hour');
  });

  it('asks first, saying when the old key stops working, and rotates nothing when the member says no', async () => {
    const calls = service();
    render(<Rotate onRotated={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rotate the key…' }));
    const dialog = screen.getByRole('dialog', { name: 'Rotate the API key?' });
    expect(dialog.textContent).toContain(
      'The old key stops working after the grace period (one hour), and older keys no later',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(rotations(calls)).toHaveLength(0);
    expect(screen.queryByText('sk_rotated-key')).toBeNull();
  });

  it('rotates with the chosen grace period once confirmed, and shows the new key once', async () => {
    const calls = service();
    const onRotated = jest.fn();
    render(<Rotate onRotated={onRotated} />);
    fireEvent.click(screen.getByRole('button', { name: 'Rotate the key…' }));
    expect(rotations(calls)).toHaveLength(0);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Rotate' }));
    await screen.findByText('sk_rotated-key');
    expect(screen.getByText(/The old key is accepted until .*, and no older key longer\./)).toBeTruthy();
    expect(rotations(calls)).toHaveLength(1);
    expect(await rotations(calls)[0]!.clone().json()).toEqual({ grace_seconds: 3600 });
    await waitFor(() => expect(onRotated).toHaveBeenCalled());
  });

  it('warns that the old key stops at once when no grace period is chosen', () => {
    service();
    render(<Rotate onRotated={() => {}} />);
    fireEvent.change(screen.getByLabelText('Grace period for the old key'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Rotate the key…' }));
    expect(screen.getByRole('dialog').textContent).toContain(
      'The old key stops working at once, with any older key still in a grace period',
    );
  });
});
