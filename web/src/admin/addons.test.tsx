import { render, screen } from '@testing-library/preact';
import { Addons } from './addons';

const addon = (key: string, installed: boolean, enabled: boolean) => ({
  key,
  name: key,
  version: '1.0.0',
  description: `The ${key} add-on`,
  author: 'Acme',
  installed,
  installed_version: installed ? '1.0.0' : null,
  enabled,
  show_menu: enabled,
});

beforeEach(() => {
  const list = [addon('helpdesk', true, true), addon('invoicing', true, false), addon('newsroom', false, false)];
  globalThis.fetch = jest.fn(async () => new Response(JSON.stringify({ code: 0, message: 'ok', data: { list } }), { status: 200, headers: { 'Content-Type': 'application/json' } })) as typeof fetch;
});

describe('application center', () => {
  it('marks a disabled add-on as disabled, not with the colour of a request waiting for review', async () => {
    render(<Addons canManage={false} roles={[]} />);
    const badge = async (text: RegExp) => (await screen.findByText(text)).classList;
    expect([...(await badge(/^installed 1\.0\.0, enabled/))]).toEqual(['status', 'enabled']);
    expect([...(await badge(/^installed 1\.0\.0, disabled/))]).toEqual(['status', 'disabled']);
    expect([...(await badge(/^not installed$/))]).toEqual(['status', 'none']);
  });
});
