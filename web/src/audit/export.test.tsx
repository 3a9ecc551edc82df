import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { whenSignedOut } from '../api/client';
import { AuditExport } from './export';
import { envelope } from '../../test/envelope';

const NDJSON =
  '{"position":"00000000000000000001","type":"CredentialApplied"}\n{"next":"00000000000000000001","count":1,"more":false}\n';

let asked: string[];
let answer: () => Response;
let saved: { file: Blob; name: string }[];

beforeEach(() => {
  asked = [];
  saved = [];
  answer = () => new Response(NDJSON, { status: 200, headers: { 'Content-Type': 'application/x-ndjson' } });
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    return answer();
  }) as typeof fetch;
  // jsdom has no object URLs and no downloads: the file handed over and its name are what count.
  let file: Blob | null = null;
  URL.createObjectURL = jest.fn((blob: Blob) => ((file = blob), 'blob:http://localhost/export'));
  URL.revokeObjectURL = jest.fn();
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.href === 'blob:http://localhost/export' && file) saved.push({ file, name: this.download });
  });
});
afterEach(() => jest.restoreAllMocks());

const download = () => fireEvent.click(screen.getByRole('button', { name: 'Download the NDJSON export' }));

describe('the NDJSON export', () => {
  it('downloads from the beginning, or after the position pasted from the file before, and saves the file under its name', async () => {
    render(<AuditExport />);
    download();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(asked).toEqual(['/api/v1/audit/events?limit=10000']);
    expect(saved[0]!.name).toBe('platform-events.ndjson');
    expect(await saved[0]!.file.text()).toBe(NDJSON);
    expect(screen.getByRole('status').textContent).toBe('Downloaded platform-events.ndjson.');

    fireEvent.input(screen.getByLabelText('Resume after position (optional)'), {
      target: { value: ' 00000000000000010000 ' },
    });
    download();
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(asked[1]).toBe('/api/v1/audit/events?from=00000000000000010000&limit=10000');
  });

  it("a position the log does not have is refused at the field, with the service's message, and nothing is saved", async () => {
    const message =
      'Resume after position is not a position of this event log: pass the next of an earlier export, or omit from to start at the beginning.';
    answer = () => envelope(422, { code: 422, message, data: { error: 'invalid_position' } });
    render(<AuditExport />);
    const field = screen.getByLabelText('Resume after position (optional)');
    fireEvent.input(field, { target: { value: 'garbage' } });
    download();
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const described = field
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain(message);
    expect(document.activeElement).toBe(field);
    expect(saved).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('a session gone is said in place, and sends the user back to sign-in', async () => {
    const signedOut = jest.fn();
    whenSignedOut(signedOut);
    answer = () =>
      envelope(401, {
        code: 401,
        message: 'no administrator is logged into this session',
        data: { error: 'admin_not_logged_in' },
      });
    render(<AuditExport />);
    download();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are signed out: sign in again to go on; what you typed is kept.',
    );
    expect(signedOut).toHaveBeenCalled();
    expect(saved).toEqual([]);
  });
});
