import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedPlatform } from '../../../src/access/seed';
import { argon2Hasher } from '../../../src/member/passwords';
import { membersProjection } from '../../../src/member/projection';
import { ADMIN_PASSWORD, uniqueUsername } from '../../support/platform';
import { REGISTRY } from '../../support/registry';
import {
  run,
  startService,
  once,
  readSoFar,
  refusedConnection,
  inStores,
  checkpointsAndHead,
  killLeftovers,
  RawConnection,
} from './service-processes';

/**
 * Graceful shutdown (issue 7), on the real entry points in processes of their own:
 * SIGTERM stops accepting, lets requests in flight finish, stores the projections' checkpoints and
 * exits 0; idle keep-alive connections do not hold it, and SHUTDOWN_GRACE_MS bounds the wait.
 */
afterAll(killLeftovers);

describe('SIGTERM', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-shutdown-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('stops accepting, closes idle keep-alive connections, finishes the request in flight, checkpoints the projections and exits 0', async () => {
    const dir = scratch();
    const service = await startService(dir);
    const { port } = service;

    const session = await once(port, 'GET', '/api/v1/developer/session');
    const cookie = session.headers['set-cookie']!.split(';')[0]!;
    const token = JSON.parse(session.body).data.csrf_token as string;

    const idle = await RawConnection.to(port);
    idle.write('GET /api/v1/livez HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect((await idle.answer()).headers.connection).toBe('keep-alive');

    const username = uniqueUsername('Term');
    const body = JSON.stringify({ username, password: 'secret1', email: 'term@example.com' });
    const half = Math.floor(body.length / 2);
    const busy = await RawConnection.to(port);
    busy.write(
      `POST /api/v1/developer/register HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await readSoFar(port);

    service.child.kill('SIGTERM');
    const draining = await service.logged('not accepting connections; finishing the requests in flight');
    expect(draining.in_flight).toBe(1);
    expect(await refusedConnection(port)).toBe('ECONNREFUSED');
    await idle.closed;
    expect(busy.open).toBe(true);

    busy.write(body.slice(half));
    const registered = await busy.answer();
    expect(registered.status).toBe(200);
    expect(registered.headers.connection).toBe('close');
    const member = JSON.parse(registered.body).data as { id: number; username: string };
    expect(member).toEqual({ id: expect.any(Number), username });
    await busy.closed;

    expect(await service.exited).toBe(0);
    const messages = service.lines.map((l) => l.msg);
    expect(messages.indexOf('stopping')).toBeGreaterThan(-1);
    expect(messages.indexOf('stopped')).toBeGreaterThan(messages.indexOf('stopping'));
    expect(service.lines.filter((l) => (l.level as number) >= 40)).toEqual([]);

    await inStores(dir, async (stores) => {
      const { checkpoints, expected } = await checkpointsAndHead(stores);
      expect(checkpoints).toEqual(expected);
      const projected = await stores.documents.get<{ username: string }>(
        membersProjection.collection.name,
        String(member.id),
      );
      expect(projected?.doc.username).toBe(username);
    });
  });

  it('cuts a request still unfinished after SHUTDOWN_GRACE_MS, and still exits 0', async () => {
    const service = await startService(scratch(), { SHUTDOWN_GRACE_MS: '300' });
    const { port } = service;
    // Admitted (session and token), so that the service waits for the rest of the body.
    const session = await once(port, 'GET', '/api/v1/developer/session');
    const cookie = session.headers['set-cookie']!.split(';')[0]!;
    const token = JSON.parse(session.body).data.csrf_token as string;
    const stuck = await RawConnection.to(port);
    stuck.write(
      `POST /api/v1/developer/register HTTP/1.1\r\nHost: localhost\r\nCookie: ${cookie}\r\nX-CSRF-Token: ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    );
    await readSoFar(port);

    service.child.kill('SIGTERM');
    await stuck.closed;
    expect(stuck.unread).toBe('');
    expect(await service.exited).toBe(0);
    expect(service.lines.find((l) => l.msg.startsWith('cut requests'))).toMatchObject({ cut: 1, grace_ms: 300 });
    expect(service.lines.at(-1)?.msg).toBe('stopped');
  });

  it('makes the projector store every checkpoint at the log head and exit 0', async () => {
    const dir = scratch();
    await inStores(dir, (stores) =>
      seedPlatform(
        stores.events,
        argon2Hasher(),
        ADMIN_PASSWORD,
        undefined,
        { actor: { kind: 'system', id: 'seed' }, requestId: 'seed', now: new Date() },
        REGISTRY.permissions,
      ),
    );

    const projector = run(['-e', "require('./src/project').project(process.env)"], dir);
    await projector.logged('projector running');
    projector.child.kill('SIGTERM');
    expect(await projector.exited).toBe(0);
    expect(projector.lines.at(-1)?.msg).toBe('stopped');

    const { checkpoints, expected } = await inStores(dir, checkpointsAndHead);
    expect(checkpoints).toEqual(expected);
  });
});
