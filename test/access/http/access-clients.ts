import request from 'supertest';
import type { Settings } from '../../../src/config';
import { Sink, startWithMail, stopWithMail } from '../../member/mailed-links';
import {
  ADMIN_PASSWORD,
  Answer,
  expectRefusal,
  logInAdmin,
  startPlatform,
  TestPlatform,
  uniqueUsername,
} from '../../support/platform';

/** A browser logged in as an administrator: its cookie jar and its current CSRF token. */
export interface AdminBrowser {
  client: request.Agent;
  token: string;
  platform: TestPlatform;
  post(path: string, body?: object): request.Test;
  get(path: string): request.Test;
}

export const SUPER = { username: 'admin', password: ADMIN_PASSWORD };

export async function adminBrowser(t: TestPlatform, { username, password } = SUPER): Promise<AdminBrowser> {
  const client = t.client();
  const token = await logInAdmin(client, { username, password });
  return {
    client,
    token,
    platform: t,
    post: (path, body = {}) => client.post(`/api/v1${path}`).set('X-CSRF-Token', token).send(body),
    get: (path) => client.get(`/api/v1${path}`),
  };
}

/** Tries an administrator login on a fresh browser; answers the response. */
export async function tryLogin(t: TestPlatform, { username, password }: { username: string; password: string }) {
  const client = t.client();
  const { body } = await client.get('/api/v1/admin/session').expect(200);
  return client.post('/api/v1/admin/login').set('X-CSRF-Token', body.data.csrf_token).send({ username, password });
}

/** A role group defined over the API, and an administrator in it with the password they chose (or their one-time one). */
export async function groupWithAdmin(by: AdminBrowser, permissions: string[], { keepOneTime = false } = {}) {
  const group = await by.post('/role-groups', { name: `Group ${uniqueUsername('g')}`, permissions }).expect(200);
  const username = uniqueUsername('op');
  const created = await by.post('/administrators', { username, role_group_id: group.body.data.id }).expect(200);
  const oneTime = created.body.data.password as string;
  // Unless kept, the administrator chose their own, as the console makes them do first.
  const password = keepOneTime ? oneTime : await ownPasswordFor(by.platform, username, oneTime);
  return { role_id: group.body.data.id as number, id: created.body.data.id as number, username, password };
}

/**
 * Signs in once with a one-time password and chooses the administrator's own, as the console makes
 * them do first (a one-time password is refused everything else); answers the password chosen.
 */
export async function ownPasswordFor(t: TestPlatform, username: string, oneTime: string): Promise<string> {
  const chosen = `${oneTime}-own`;
  const first = await adminBrowser(t, { username, password: oneTime });
  await first.post('/admin/password', { current_password: oneTime, new_password: chosen }).expect(200);
  await first.post('/admin/logout').expect(200);
  return chosen;
}

/** This file's platform, with the super administrator signed in on `root`, and its refusals asserted on it. */
export function accessPlatform() {
  const files = {} as {
    t: TestPlatform;
    root: AdminBrowser;
    refused(send: () => PromiseLike<Answer>, status: number, error: string): Promise<Answer>;
  };
  files.refused = (send, status, error) => expectRefusal(files.t, send, status, error);
  beforeAll(async () => {
    files.t = await startPlatform();
    files.root = await adminBrowser(files.t);
  });
  afterAll(() => files.t.close());
  return files;
}

/** This file's platform with its mail going to `sink`, and the super administrator signed in on `root`. */
export function accessPlatformWithMail(overrides: Partial<Settings> = {}) {
  const files = {} as { sink: Sink; t: TestPlatform; root: AdminBrowser };
  beforeAll(async () => {
    Object.assign(files, await startWithMail(overrides));
    files.root = await adminBrowser(files.t);
  });
  afterAll(() => stopWithMail(files));
  return files;
}
