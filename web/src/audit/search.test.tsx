import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { envelope, serviceStandIn } from '../../test/envelope';
import { Auditor } from './auditor';
import { AuditSearch } from './search';

const found = {
  position: '12',
  stream: 'credential-7',
  revision: 1,
  type: 'CredentialApproved',
  time: '2026-11-23T10:05:00.000Z',
  actor: { kind: 'admin', id: 1, username: 'root' },
  summary: 'Application approved',
  data: { member_id: 7 },
  schema_version: 1,
  request_id: 'r1',
  member_id: 7,
};

const searches = (calls: Request[]) =>
  calls.filter((c) => new URL(c.url).pathname.endsWith('/audit/search')).map((c) => new URL(c.url).searchParams);

it('searches by the filters the address names, and links each event to its member and to that instant', async () => {
  history.replaceState(null, '', '/ui/admin/audit?type=CredentialApproved&actor=root');
  const calls = serviceStandIn(() => envelope(200, { code: 0, message: 'ok', data: { list: [found], next: null } }));
  render(<AuditSearch />);
  const timeline = await screen.findByRole('link', { name: 'Timeline of #7' });
  expect(timeline.getAttribute('href')).toBe('/ui/admin/audit/members/7');
  expect(screen.getByRole('link', { name: 'State then' }).getAttribute('href')).toBe(
    `/ui/admin/audit/members/7?as_of=${encodeURIComponent(found.time)}`,
  );
  expect(Object.fromEntries(searches(calls)[0]!)).toEqual({ type: 'CredentialApproved', actor: 'root', limit: '50' });
  expect((screen.getByLabelText('Event type') as HTMLSelectElement).value).toBe('CredentialApproved');
});

it('puts a new search in the address, its times as instants', async () => {
  history.replaceState(null, '', '/ui/admin/audit');
  const calls = serviceStandIn(() => envelope(200, { code: 0, message: 'ok', data: { list: [], next: null } }));
  render(<AuditSearch />);
  expect(searches(calls)).toHaveLength(0);
  fireEvent.input(screen.getByLabelText('Actor (username)'), { target: { value: ' alice ' } });
  fireEvent.input(screen.getByLabelText('From (your local time)'), { target: { value: '2026-11-20T08:00:00' } });
  fireEvent.submit(screen.getByRole('search', { name: 'Events' }));
  await waitFor(() => expect(searches(calls)).toHaveLength(1));
  const from = new Date('2026-11-20T08:00:00').toISOString();
  expect(new URLSearchParams(location.search).get('from')).toBe(from);
  expect(Object.fromEntries(searches(calls)[0]!)).toEqual({ actor: 'alice', from, limit: '50' });
  expect(await screen.findByText('No event matches.')).not.toBeNull();
});

it("a link to an instant replays the member's history to it, and keeps it in the address", async () => {
  const asOf = '2026-11-23T10:05:00.999Z';
  history.replaceState(null, '', `/ui/admin/audit/members/7?as_of=${encodeURIComponent(asOf)}`);
  const calls = serviceStandIn(() =>
    envelope(200, { code: 0, message: 'ok', data: { member_id: 7, username: 'alice', as_of: asOf, events: [] } }),
  );
  render(<Auditor member={7} />);
  await waitFor(() => expect(calls.some((c) => c.url.includes('/history'))).toBe(true));
  const asked = calls.find((c) => c.url.includes('/history'))!;
  expect(new URL(asked.url).searchParams.get('as_of')).toBe(asOf);
  expect((screen.getByLabelText('As of (optional)') as HTMLInputElement).value).toMatch(
    /^2026-11-2\dT\d\d:\d\d(:00)?$/,
  );
  expect(location.search).toBe(`?as_of=${encodeURIComponent(asOf)}`);
});
