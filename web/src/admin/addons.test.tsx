import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { Addons } from './addons';
import { envelope } from '../../test/envelope';

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

const roles = [{ id: 1, name: 'Operators', permissions: [] }];
const refused = (status: number, error: string, message: string) =>
  envelope(status, { code: status, message, data: { error } });

/** What an action answers; the service's message names the add-on. */
let actionAnswer: () => Response;
/** How often the list and the pages one may open were read. */
const reads = { list: 0, pages: 0 };

beforeEach(() => {
  actionAnswer = () => envelope(200, { code: 0, message: 'helpdesk: disabled', data: addon('helpdesk', true, false) });
  reads.list = 0;
  reads.pages = 0;
  const list = [addon('helpdesk', true, true), addon('invoicing', true, false), addon('newsroom', false, false)];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'));
    const path = new URL(request.url).pathname;
    if (path.endsWith('/developer/session'))
      return envelope(200, { code: 0, message: 'ok', data: { csrf_token: 'token-1' } });
    if (path.endsWith('/access'))
      return envelope(200, {
        code: 0,
        message: 'ok',
        data: { pages: [{ id: 'tickets', title: 'Tickets' }], page_roles: null },
      });
    if (path.endsWith('/pages')) {
      reads.pages += 1;
      return envelope(200, { code: 0, message: 'ok', data: { list: [] } });
    }
    if (path.includes('/actions/')) return actionAnswer();
    reads.list += 1;
    return envelope(200, { code: 0, message: 'ok', data: { list } });
  }) as typeof fetch;
});

describe('application center', () => {
  it('marks a disabled add-on as disabled, not with the colour of a request waiting for review', async () => {
    render(<Addons canManage={false} roles={[]} />);
    const badge = async (text: RegExp) => (await screen.findByText(text)).classList;
    expect([...(await badge(/^installed 1\.0\.0, enabled/))]).toEqual(['status', 'enabled']);
    expect([...(await badge(/^installed 1\.0\.0, disabled/))]).toEqual(['status', 'disabled']);
    expect([...(await badge(/^not installed$/))]).toEqual(['status', 'none']);
  });

  it('names each card\'s buttons with its add-on: a list of "Install…" tells nothing apart', async () => {
    render(<Addons canManage roles={roles} />);
    for (const name of [
      'Install newsroom…',
      'Reinstall helpdesk…',
      'Access to helpdesk…',
      'Disable helpdesk',
      'Enable invoicing',
      'Uninstall invoicing…',
      'Hide from the menu – helpdesk',
    ]) {
      expect(await screen.findByRole('button', { name })).not.toBeNull();
    }
  });

  it('opens the page-roles editor with focus on its heading, and Cancel or Escape gives focus back to the opener', async () => {
    render(<Addons canManage roles={roles} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Install newsroom…' }));
    const heading = screen.getByRole('heading', { name: 'Install newsroom' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const box = await screen.findByLabelText('Operators may view Tickets');
    fireEvent.keyDown(box, { key: 'Escape' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Install newsroom…' })));

    fireEvent.click(screen.getByRole('button', { name: 'Access to helpdesk…' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Access to helpdesk…' })),
    );
  });

  it('after an action, says in the card what was done and puts focus there', async () => {
    render(<Addons canManage roles={roles} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable helpdesk' }));
    const done = await screen.findByRole('status');
    expect(done.textContent).toBe('helpdesk: disabled');
    expect(done.closest('article')!.getAttribute('aria-labelledby')).toBe('addon-helpdesk');
    await waitFor(() => expect(document.activeElement).toBe(done));
  });

  it('after an action, reads again the list and the pages this administrator may open', async () => {
    render(<Addons canManage roles={roles} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable helpdesk' }));
    await screen.findByRole('status');
    // Two installed add-ons read their pages once each; the one acted on, once more.
    await waitFor(() => expect(reads).toEqual({ list: 2, pages: 3 }));
  });

  it('refused because another administrator acted meanwhile: drops the earlier outcome and reads the list again', async () => {
    render(<Addons canManage roles={roles} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Disable helpdesk' }));
    await screen.findByText('helpdesk: disabled');
    await waitFor(() => expect(reads).toEqual({ list: 2, pages: 3 }));
    actionAnswer = () => refused(422, 'addon_already_disabled', 'add-on helpdesk is already disabled');
    fireEvent.click(screen.getByRole('button', { name: 'Disable helpdesk' }));
    const notice = await screen.findByText(/already disabled/);
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(screen.queryByText('helpdesk: disabled')).toBeNull();
    // The list, and the pages this administrator may open of the add-on acted on.
    await waitFor(() => expect(reads).toEqual({ list: 3, pages: 4 }));
  });

  /** Opens newsroom's install editor and sends it, answered with this refusal; answers the reads before sending. */
  async function installRefused(error: string, message: string) {
    render(<Addons canManage roles={roles} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Install newsroom…' }));
    const before = { ...reads };
    actionAnswer = () => refused(422, error, message);
    fireEvent.click(await screen.findByRole('button', { name: 'Install' }));
    return before;
  }

  it('an install refused because another administrator installed it meanwhile closes the editor and says so in the card', async () => {
    const before = await installRefused('addon_already_installed', 'add-on newsroom is already installed');
    const notice = await screen.findByText(/already installed/);
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(screen.queryByRole('heading', { name: 'Install newsroom' })).toBeNull();
    await waitFor(() => expect(reads.list).toBe(before.list + 1));
  });

  it('an install refused for what was typed keeps the editor open with the refusal in it', async () => {
    const before = await installRefused('invalid_page_roles', 'page_roles names a role group that does not exist');
    expect(await screen.findByText(/does not exist/)).not.toBeNull();
    expect(screen.getByRole('heading', { name: 'Install newsroom' })).not.toBeNull();
    expect(reads).toEqual(before);
  });
});
