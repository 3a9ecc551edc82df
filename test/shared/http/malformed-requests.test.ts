import { connect } from 'node:net';
import { AddressInfo } from 'node:net';
import { startPlatform, TestPlatform } from '../../support/platform';

/**
 * What Node's HTTP parser refuses never reaches the application; the server still answers it in
 * the envelope, closes the connection, and appends nothing.
 */

let t: TestPlatform;
beforeAll(async () => {
  t = await startPlatform();
});
afterAll(() => t.close());

/** Sends raw bytes on a new connection; resolves with everything the server wrote before closing it. */
function sendRaw(bytes: string | Buffer): Promise<string> {
  const { port } = t.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parse(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0], head, envelope: JSON.parse(body) };
}

it.each([
  ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
  ['a header line without a colon', 'GET /api/v1/livez HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
  [
    'both Content-Length and Transfer-Encoding',
    'POST /api/v1/developer/register HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
  ],
  [
    'a bad chunk size',
    'POST /api/v1/developer/register HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
  ],
])('%s is 400 malformed_request in the envelope, and changes nothing', async (_name, bytes) => {
  const before = await t.platform.stores.events.headPosition();
  const { statusLine, head, envelope } = parse(await sendRaw(bytes));
  expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
  expect(head).toMatch(/\r\nConnection: close/);
  expect(envelope).toEqual({
    code: 400,
    message: expect.stringContaining('not valid HTTP/1.1'),
    data: { error: 'malformed_request' },
  });
  expect(await t.platform.stores.events.headPosition()).toBe(before);
});

it('header lines over the size Node accepts are 431 headers_too_large in the envelope', async () => {
  const huge = `GET /api/v1/livez HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`;
  const { statusLine, envelope } = parse(await sendRaw(huge));
  expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
  expect(envelope).toEqual({
    code: 431,
    message: expect.stringContaining('header lines are too large: send a shorter URL'),
    data: { error: 'headers_too_large' },
  });
});

it('a well-formed request on the same server is still answered by the application', async () => {
  const answer = await sendRaw('GET /api/v1/livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
});
