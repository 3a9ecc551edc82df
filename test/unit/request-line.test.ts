import { Writable } from 'node:stream';
import { createLogger, RequestLine, requestLineWriter } from '../../src/log';

function capturing(level: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLogger(level, sink), lines };
}

const parsed = (line: string) => {
  const { time, ...rest } = JSON.parse(line) as Record<string, unknown>;
  expect(typeof time).toBe('number');
  return rest;
};

/** The request line is written as one template (src/log.ts): it must read as pino's own line for the same fields. */
describe('the request line', () => {
  const fields: RequestLine = {
    request_id: '6f1c2b5e-8a4d-4c1e-9f3a-2b7d5e8c1a90',
    client_request_id: 'partner-trace.1',
    method: 'GET',
    path: '/api/v1/open/"odd\\path',
    status: 200,
    duration_ms: 0.123,
  };

  it('is the line pino writes for the same fields, with the logger bindings', async () => {
    const ours = capturing('info');
    requestLineWriter(ours.log)(fields);
    const pinos = capturing('info');
    pinos.log.info(fields, 'request');
    await new Promise((resolve) => setImmediate(resolve));
    expect(ours.lines).toHaveLength(1);
    expect(parsed(ours.lines[0]!)).toEqual(parsed(pinos.lines[0]!));
    expect(parsed(ours.lines[0]!)).toMatchObject({ service: 'platform-api', path: fields.path, msg: 'request' });
  });

  it('gives the duration to the microsecond', async () => {
    const ours = capturing('info');
    requestLineWriter(ours.log)({ ...fields, duration_ms: 12.3456789 });
    requestLineWriter(ours.log)({ ...fields, duration_ms: 0.0004 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ours.lines.map((line) => parsed(line).duration_ms)).toEqual([12.346, 0]);
  });

  it('leaves out a client request id that was not given, as pino leaves out an undefined field', async () => {
    const ours = capturing('info');
    requestLineWriter(ours.log)({ ...fields, client_request_id: undefined });
    const pinos = capturing('info');
    pinos.log.info({ ...fields, client_request_id: undefined }, 'request');
    await new Promise((resolve) => setImmediate(resolve));
    expect(parsed(ours.lines[0]!)).toEqual(parsed(pinos.lines[0]!));
    expect(parsed(ours.lines[0]!)).not.toHaveProperty('client_request_id');
  });

  it('is not written below the info level', async () => {
    const quiet = capturing('warn');
    requestLineWriter(quiet.log)(fields);
    await new Promise((resolve) => setImmediate(resolve));
    expect(quiet.lines).toEqual([]);
  });
});
