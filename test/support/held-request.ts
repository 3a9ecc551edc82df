import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from 'node:http';
import request from 'supertest';
import { Stores } from '../../src/stores/ports';
import { sessionCookie } from './platform';

/** Counts session reads, so a test knows when a request has loaded its session. */
export const sessionLoads = { count: 0 };

export function countingSessionLoads(stores: Stores): Stores {
  const { sessions } = stores;
  return {
    ...stores,
    sessions: {
      get: (id) => {
        sessionLoads.count += 1;
        return sessions.get(id);
      },
      create: (id, data, ttl) => sessions.create(id, data, ttl),
      update: (id, data, ttl) => sessions.update(id, data, ttl),
      touch: (id, ttl) => sessions.touch(id, ttl),
      regenerate: (from, to, move) => sessions.regenerate(from, to, move),
      destroy: (id) => sessions.destroy(id),
      endAllOf: (identity, except) => sessions.endAllOf(identity, except),
      close: () => sessions.close(),
    },
  };
}

export interface HeldAnswer {
  status: number;
  body: string;
  /** The `PHPSESSID=…` pair the answer set, if it set one. */
  cookie: string | undefined;
}

export interface Held {
  /** Sends the rest of the body; resolves with the answer. */
  finish(): Promise<HeldAnswer>;
}

/**
 * A POST whose headers (session cookie, CSRF token) and all of its body but the last byte are
 * sent: the service has loaded the session and waits for the body, as a slow upload does.
 * Resolves once the session is loaded (the stores must be wrapped with countingSessionLoads).
 */
export async function holdPost(
  server: Server,
  path: string,
  cookie: string,
  token: string,
  body: unknown = {},
): Promise<Held> {
  const { port } = server.address() as AddressInfo;
  const json = JSON.stringify(body);
  const before = sessionLoads.count;
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: {
      Cookie: cookie,
      'X-CSRF-Token': token,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(json)),
    },
  });
  const answer = new Promise<HeldAnswer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.on('end', () => {
        const set = (res.headers['set-cookie'] ?? []).find(
          (c) => c.startsWith('PHPSESSID=') && !c.startsWith('PHPSESSID=;'),
        );
        resolve({ status: res.statusCode ?? 0, body: text, cookie: set?.slice(0, set.indexOf(';')) });
      });
    });
  });
  req.write(json.slice(0, -1));
  while (sessionLoads.count === before) await sleep(5);
  return {
    finish() {
      req.end(json.slice(-1));
      return answer;
    },
  };
}

/** The `PHPSESSID=…` pair the client's session cookie holds now. */
export async function currentCookie(client: request.Agent): Promise<string> {
  const res = await client.get('/api/v1/developer/session').expect(200);
  const cookie = sessionCookie(res);
  if (!cookie) throw new Error('no session cookie');
  return cookie.slice(0, cookie.indexOf(';'));
}
