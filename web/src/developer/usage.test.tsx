import { fireEvent, render, screen } from '@testing-library/preact';
import type { Schemas } from '../api/client';
import { DeveloperUsage, UsageChart } from './usage';
import { envelope } from '../../test/envelope';

const days = (calls: (i: number) => number): Schemas['Usage']['days'] =>
  Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, calls: calls(i), refused: 0, wrong_key: 0 }));

describe('the use of the key', () => {
  it('says "No calls yet." instead of an empty chart', () => {
    const { container } = render(<UsageChart usage={{ last_used_at: null, days: days(() => 0) }} />);
    expect(screen.getByText('No calls yet.')).not.toBeNull();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('without a call in 30 days, says when the key was last used', () => {
    const { container } = render(<UsageChart usage={{ last_used_at: '2026-09-01T10:00:00.000Z', days: days(() => 0) }} />);
    expect(screen.getByText(/^No calls in the last 30 days\. Last used: /)).not.toBeNull();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('says that calls with a wrong key were refused and are not use', () => {
    const probed = days(() => 0).map((d, i) => (i === 29 ? { ...d, wrong_key: 5 } : d));
    render(<UsageChart usage={{ last_used_at: null, days: probed }} />);
    expect(screen.getByText(/^No calls yet\. 5 calls named your API id with a wrong key; they were refused and are not counted as use\.$/)).not.toBeNull();
  });

  it('draws the chart once there are calls', () => {
    const { container } = render(<UsageChart usage={{ last_used_at: '2026-11-30T10:00:00.000Z', days: days((i) => (i === 29 ? 3 : 0)) }} />);
    expect(container.querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('usage-summary').textContent).toMatch(/^3 calls in 30 days, 0 refused\./);
  });

  it('a failed load offers to try again instead of loading forever', async () => {
    let calls = 0;
    globalThis.fetch = jest.fn(async () => {
      calls += 1;
      if (calls === 1) return envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } });
      return envelope(200, { code: 0, message: 'ok', data: { last_used_at: null, days: days(() => 0) } });
    }) as typeof fetch;
    render(<DeveloperUsage />);
    expect((await screen.findByRole('alert')).textContent).toContain('internal error');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No calls yet.')).not.toBeNull();
  });
});
