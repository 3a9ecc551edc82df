import { fireEvent, render, screen, within } from '@testing-library/preact';
import type { Schemas } from '../api/client';
import { DeveloperUsage, UsageReport } from './usage';
import { axisTop } from './usage-chart';
import { envelope } from '../../test/envelope';

const days = (calls: (i: number) => number): Schemas['Usage']['days'] =>
  Array.from({ length: 30 }, (_, i) => ({
    date: `2026-11-${String(i + 1).padStart(2, '0')}`,
    calls: calls(i),
    refused: 0,
    wrong_key: 0,
  }));

describe('the use of the key', () => {
  it('says "No calls yet." instead of an empty chart', () => {
    const { container } = render(<UsageReport usage={{ last_used_at: null, days: days(() => 0), keys: [] }} />);
    expect(screen.getByText('No calls yet.')).not.toBeNull();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('without a call in 30 days, says when the key was last used', () => {
    const { container } = render(
      <UsageReport usage={{ last_used_at: '2026-09-01T10:00:00.000Z', days: days(() => 0), keys: [] }} />,
    );
    expect(screen.getByText(/^No calls in the last 30 days\. Last used: /)).not.toBeNull();
    expect(container.querySelector('svg')).toBeNull();
  });

  it('says that calls with a wrong key were refused and are not use', () => {
    const probed = days(() => 0).map((d, i) => (i === 29 ? { ...d, wrong_key: 5 } : d));
    render(<UsageReport usage={{ last_used_at: null, days: probed, keys: [] }} />);
    expect(
      screen.getByText(
        /^No calls yet\. 5 calls named your API id with a wrong key; they were refused and are not counted as use\.$/,
      ),
    ).not.toBeNull();
  });

  it('draws the chart with axes, dates and a legend once there are calls, the numbers in a table beside it', () => {
    const busy = days((i) => (i === 29 ? 30 : i === 22 ? 7 : 0)).map((d) =>
      d.date === '2026-11-30' ? { ...d, refused: 4 } : d,
    );
    const { container } = render(
      <UsageReport usage={{ last_used_at: '2026-11-30T10:00:00.000Z', days: busy, keys: [] }} />,
    );
    expect(screen.getByTestId('usage-summary').textContent).toMatch(/^37 calls in 30 days, 4 refused\./);
    const svg = container.querySelector('svg')!;
    // The y axis is labelled in round numbers up to the busiest day's answered calls (26), rounded up.
    expect([...svg.querySelectorAll('.grid text')].map((t) => t.textContent)).toEqual(['0', '10', '20', '30', '40']);
    // Today is always named on the x axis, and a date every seven days before it.
    expect([...svg.querySelectorAll('text[text-anchor="middle"]')].map((t) => t.textContent)).toEqual([
      '2 Nov',
      '9 Nov',
      '16 Nov',
      '23 Nov',
      '30 Nov',
      'Day (UTC)',
    ]);
    expect(screen.getByRole('list', { name: 'Legend' }).textContent).toBe(' Answered Refused');
    // The numbers: a table, today first, answered and refused apart.
    const table = screen.getByRole('table', { name: /Calls per day/ });
    const today = within(table).getAllByRole('row')[1]!;
    expect([...today.children].map((c) => c.textContent)).toEqual(['30 Nov', '26', '4', '0']);
    expect(within(table).getAllByRole('row')).toHaveLength(31);
  });

  it('rounds the axis up to four steps of 1, 2 or 5 times a power of ten', () => {
    expect([0, 3, 5, 11, 26, 180, 201].map(axisTop)).toEqual([4, 4, 8, 20, 40, 200, 400]);
  });

  it('after a rotation, says which key is called and when the previous one stops', () => {
    const until = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const keys = [
      {
        key: 'aa11bb22',
        state: 'current' as const,
        valid_until: null,
        calls: 2,
        refused: 0,
        last_used_at: '2026-11-30T10:00:00.000Z',
      },
      {
        key: 'cc33dd44',
        state: 'in_grace' as const,
        valid_until: until,
        calls: 5,
        refused: 1,
        last_used_at: '2026-11-30T09:00:00.000Z',
      },
    ];
    render(
      <UsageReport usage={{ last_used_at: '2026-11-30T10:00:00.000Z', days: days((i) => (i === 29 ? 7 : 0)), keys }} />,
    );
    expect(screen.getByTestId('previous-key-stops').textContent).toMatch(
      /^Your previous key \(…cc33dd44\) stops being accepted on .+, in 3 hours: it was last called on .+\. Move every server to the current key before then\.$/,
    );
    const rows = within(screen.getByRole('table', { name: /Each key's calls/ }))
      .getAllByRole('row')
      .slice(1);
    expect(rows.map((r) => r.children[0]!.textContent)).toEqual(['Current key …aa11bb22', 'Previous key …cc33dd44']);
    expect(rows[1]!.children[1]!.textContent).toMatch(/^accepted until .+ \(in 3 hours\)$/);
    expect(rows[1]!.children[2]!.textContent).toBe('5');
  });

  it('says nothing of keys before any rotation', () => {
    const keys = [
      { key: 'aa11bb22', state: 'current' as const, valid_until: null, calls: 7, refused: 0, last_used_at: null },
    ];
    render(
      <UsageReport usage={{ last_used_at: '2026-11-30T10:00:00.000Z', days: days((i) => (i === 29 ? 7 : 0)), keys }} />,
    );
    expect(screen.queryByRole('heading', { name: 'Calls by key' })).toBeNull();
  });

  it('a failed load offers to try again instead of loading forever', async () => {
    let calls = 0;
    globalThis.fetch = jest.fn(async () => {
      calls += 1;
      if (calls === 1) return envelope(500, { code: 500, message: 'internal error', data: { error: 'internal' } });
      return envelope(200, { code: 0, message: 'ok', data: { last_used_at: null, days: days(() => 0), keys: [] } });
    }) as typeof fetch;
    render(<DeveloperUsage />);
    expect((await screen.findByRole('alert')).textContent).toContain('internal error');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No calls yet.')).not.toBeNull();
  });
});
