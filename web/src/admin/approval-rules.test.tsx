import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { envelope, serviceStandIn } from '../../test/envelope';
import { when } from '../ui/load';
import { ApprovalRules } from './approval-rules';

const rule = (id: string, name: string, disabled_at: string | null) => ({
  id,
  name,
  applies_to: 'credential',
  scope: null,
  who: 'email_domain',
  member_group_id: null,
  email_domain: 'partner.example',
  expires_in_days: 90,
  enabled: disabled_at === null,
  created_at: '2026-11-20T10:00:00.000Z',
  created_by: 1,
  disabled_at,
});

/** Two rules, one in force; disabling it turns it as the service would. */
function service() {
  let partners = rule('r1', 'Partners', null);
  const old = rule('r2', 'Old partners', '2026-11-22T09:30:00.000Z');
  return serviceStandIn((url, request) => {
    if (request.method === 'POST' && url.pathname.endsWith('/approval-rules/r1/disable')) {
      partners = rule('r1', 'Partners', '2026-11-25T12:00:00.000Z');
      return envelope(200, { code: 0, message: 'disabled', data: partners });
    }
    return envelope(200, { code: 0, message: 'ok', data: { list: [partners, old], next: null } });
  });
}

const stateOf = (name: string) =>
  within(screen.getByRole('row', { name: new RegExp(`^${name} `) })).getByRole('cell', { name: /Active|Disabled/ });

it('says in the State column whether each rule is active or disabled, and since when a disabled one is', async () => {
  service();
  render(<ApprovalRules />);
  await screen.findByRole('row', { name: /^Partners / });
  expect(stateOf('Partners').textContent).toBe('Active Disable');
  expect(stateOf('Old partners').textContent).toBe(`Disabled ${when('2026-11-22T09:30:00.000Z')}`);

  fireEvent.click(screen.getByRole('button', { name: 'Disable Partners' }));
  await waitFor(() => expect(stateOf('Partners').textContent).toBe(`Disabled ${when('2026-11-25T12:00:00.000Z')}`));
  expect(screen.queryByRole('button', { name: 'Disable Partners' })).toBeNull();
});
