import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { execFileSync } from 'node:child_process';
import partnerContract from '../../../generated/partner-contract.json';
import { envelope } from '../../../test/envelope';
import { PartnerReference as LazyReference } from '../reference';
import { PartnerReference } from './partner-reference';

const APIID = 'ak_test0000000000000000';
const KEY = 'sk_typed-into-the-page';
const openPaths = Object.keys(partnerContract.paths);

const card = (path: string) => screen.getByRole('article', { name: `GET /api/v1${path}` });

/** The open API behind the browser's fetch: records what was sent, answers with `answer`. */
function openApi(answer: () => Response | Promise<Response>) {
  const sent: { url: string; init: RequestInit }[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), init: init ?? {} });
    return answer();
  }) as typeof fetch;
  return sent;
}

function typeKey(key = KEY) {
  fireEvent.input(screen.getByLabelText('API key (X-API-Key)'), { target: { value: key } });
}

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

it('renders every open endpoint of the contract, with the key headers as its parameters', () => {
  render(<PartnerReference apiid={APIID} />);
  expect(openPaths.length).toBeGreaterThan(0);
  for (const path of openPaths) {
    const endpoint = within(card(path));
    for (const header of ['X-API-ID', 'X-API-Key']) {
      const row = endpoint.getByRole('row', { name: new RegExp(`^${header} \\(required\\) header string`) });
      expect(row).not.toBeNull();
    }
  }
  expect(screen.getAllByRole('article')).toHaveLength(openPaths.length);
});

it("shows the answer's fields as a tree, with their types and which are optional", () => {
  render(<PartnerReference apiid={APIID} />);
  const tree = card('/open/addons').querySelector('.schema-tree')!;
  const items = [...tree.querySelectorAll('li')].map(
    (li) => li.firstChild!.textContent + ' ' + li.childNodes[2]!.textContent,
  );
  expect(items).toEqual(
    expect.arrayContaining([
      'code integer, always 0',
      'data object',
      'list array of CatalogueEntry',
      'key string',
      'name string',
    ]),
  );
  const name = [...tree.querySelectorAll('li')].find((li) => li.firstChild!.textContent === 'name')!;
  expect(name.textContent).toContain('optional');
  const key = [...tree.querySelectorAll('li')].find((li) => li.firstChild!.textContent === 'key')!;
  expect(key.textContent).not.toContain('optional');
});

it("gives an example answer from the contract's examples and the schema, and copies it", async () => {
  const writeText = jest.fn(async () => undefined);
  Object.assign(navigator, { clipboard: { writeText } });
  render(<PartnerReference apiid={APIID} />);
  const example = within(card('/open/member-groups')).getByLabelText('Example answer of GET /open/member-groups');
  const answer = JSON.parse(example.textContent!);
  // The envelope built from its schema, each group the contract's own example.
  expect(answer).toEqual({
    code: 0,
    message: 'string',
    // next: the cursor of the page after, a string in the example (null on the last page).
    data: { list: [partnerContract.components.schemas.MemberGroup.examples[0]], next: 'string' },
  });
  expect(answer.data.list[0].name).toBe('Default');
  fireEvent.click(screen.getByRole('button', { name: 'Copy the example answer of GET /open/member-groups' }));
  expect(await within(card('/open/member-groups')).findByText('Copied.')).not.toBeNull();
  expect(writeText).toHaveBeenCalledWith(example.textContent);
});

it('says so when the browser refuses the clipboard', async () => {
  Object.assign(navigator, { clipboard: { writeText: jest.fn(async () => Promise.reject(new Error('denied'))) } });
  render(<PartnerReference apiid={APIID} />);
  fireEvent.click(screen.getByRole('button', { name: 'Copy the curl call for GET /open/addons' }));
  expect(await screen.findByText('Copying failed: select the text and copy it by hand.')).not.toBeNull();
});

describe('the curl call, run in a shell', () => {
  /** The copied line with curl replaced by a stand-in that prints its arguments. */
  function runCurl(env: Record<string, string>) {
    render(<PartnerReference apiid={APIID} />);
    const line = screen.getByLabelText('curl call for GET /open/addons').textContent!;
    expect(line).toContain(`X-API-ID: ${APIID}`);
    try {
      const out = execFileSync('sh', ['-c', `curl() { printf '%s\\n' "$@"; }\n${line}`], {
        env: { PATH: process.env.PATH!, ...env },
        encoding: 'utf8',
        stdio: 'pipe',
      });
      return { status: 0, out, err: '' };
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      return { status: failed.status, out: failed.stdout, err: failed.stderr };
    }
  }

  it('sends the key from PLATFORM_API_KEY', () => {
    const { status, out } = runCurl({ PLATFORM_API_KEY: 'sk_from_env' });
    expect(status).toBe(0);
    expect(out.split('\n')).toEqual(
      expect.arrayContaining(['http://localhost/api/v1/open/addons', 'X-API-Key: sk_from_env', `X-API-ID: ${APIID}`]),
    );
  });

  it('stops with a message saying what to set when PLATFORM_API_KEY is not exported, sending nothing', () => {
    const { status, out, err } = runCurl({});
    expect(status).not.toBe(0);
    expect(err).toContain('set PLATFORM_API_KEY to your API key');
    expect(out).toBe('');
  });
});

describe('try it', () => {
  it('is offered only once a key is typed', () => {
    render(<PartnerReference apiid={APIID} />);
    expect((screen.getByRole('button', { name: 'Send GET /open/addons' }) as HTMLButtonElement).disabled).toBe(true);
    typeKey();
    expect((screen.getByRole('button', { name: 'Send GET /open/addons' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('calls the open API with the typed API id and key, without cookies, and shows status, header fields and body', async () => {
    const sent = openApi(() => {
      const answer = envelope(200, { code: 0, message: 'ok', data: { list: [{ key: 'helpdesk' }] } });
      answer.headers.set('RateLimit-Remaining', '5999');
      return answer;
    });
    render(<PartnerReference apiid={APIID} />);
    typeKey();
    fireEvent.click(screen.getByRole('button', { name: 'Send GET /open/addons' }));
    const tried = within(screen.getByRole('region', { name: 'Try GET /open/addons' }));
    expect(await tried.findByText('Answered 200')).not.toBeNull();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/v1/open/addons');
    expect(sent[0]!.init).toMatchObject({
      method: 'GET',
      credentials: 'omit',
      headers: { 'X-API-ID': APIID, 'X-API-Key': KEY },
    });
    expect(tried.getByRole('row', { name: 'ratelimit-remaining 5999' })).not.toBeNull();
    expect(
      JSON.parse(tried.getByLabelText('Body of the answer to GET /open/addons').textContent!).data.list[0].key,
    ).toBe('helpdesk');
  });

  it("shows a refusal's status and envelope as the service sent them", async () => {
    openApi(() =>
      envelope(401, {
        code: 401,
        message: 'X-API-ID and X-API-Key are not accepted: check both',
        data: { error: 'api_credentials_invalid' },
      }),
    );
    render(<PartnerReference apiid={APIID} />);
    typeKey('sk_wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Send GET /open/member-groups' }));
    const tried = within(screen.getByRole('region', { name: 'Try GET /open/member-groups' }));
    expect(await tried.findByText('Answered 401')).not.toBeNull();
    expect(tried.getByLabelText('Body of the answer to GET /open/member-groups').textContent).toContain(
      '"error": "api_credentials_invalid"',
    );
  });

  it('says the service cannot be reached when the call fails on the network', async () => {
    openApi(() => Promise.reject(new TypeError('Failed to fetch')));
    render(<PartnerReference apiid={APIID} />);
    typeKey();
    fireEvent.click(screen.getByRole('button', { name: 'Send GET /open/addons' }));
    expect(
      await screen.findByText('The service cannot be reached: check the connection and try again.'),
    ).not.toBeNull();
  });

  it('keeps the key in memory only: not stored, not in the address, gone on leaving the screen or the page', async () => {
    openApi(() => envelope(200, { code: 0, message: 'ok', data: { list: [] } }));
    const first = render(<PartnerReference apiid={APIID} />);
    typeKey();
    fireEvent.click(screen.getByRole('button', { name: 'Send GET /open/addons' }));
    await screen.findByText('Answered 200');
    const everywhere = [
      location.href,
      document.cookie,
      JSON.stringify({ ...localStorage }),
      JSON.stringify({ ...sessionStorage }),
    ].join(' ');
    expect(everywhere).not.toContain(KEY);

    act(() => void dispatchEvent(new Event('pagehide')));
    expect((screen.getByLabelText('API key (X-API-Key)') as HTMLInputElement).value).toBe('');

    typeKey();
    first.unmount();
    render(<PartnerReference apiid={APIID} />);
    expect((screen.getByLabelText('API key (X-API-Key)') as HTMLInputElement).value).toBe('');
  });
});

it('is loaded as its own chunk when opened, and then shown', async () => {
  render(<LazyReference apiid={APIID} />);
  expect(screen.getByRole('status').textContent).toContain('Loading the API reference');
  await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Partner API reference' })).not.toBeNull());
});
