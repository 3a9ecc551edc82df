import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createAdmin } from '../../src/access/admins';
import { CommandContext } from '../../src/shared/commands/context';
import { argon2Hasher } from '../../src/member/passwords';
import { addonStream } from '../../src/addon/decider';
import { AddonManifest } from '../../src/addon/manifest';
import { PageRoles } from '../../src/addon/page-roles';
import { logInAdmin, startPlatform, TestPlatform, uniqueUsername } from './platform';
import { SHELL } from '../../src/access/grantor';

const API = '/api/v1';

/** A valid manifest for `key`, with the given pages. */
export function manifest(
  key: string,
  pages: string[] = ['home', 'settings'],
  changes: Partial<AddonManifest> = {},
): AddonManifest {
  return {
    key,
    name: `Add-on ${key}`,
    version: '1.0.0',
    description: `The ${key} add-on`,
    author: 'Test Labs',
    pages: pages.map((id) => ({ id, title: `Title of ${id}` })),
    ...changes,
  };
}

/** Writes `<dir>/<directory>/addon.json`, replacing what was there; a string is written as it is. */
export function writeManifest(dir: string, directory: string, content: object | string): string {
  mkdirSync(join(dir, directory), { recursive: true });
  const path = join(dir, directory, 'addon.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** A fresh ADDONS_DIR holding these manifests. */
export function addonsDir(manifests: AddonManifest[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-addons-'));
  for (const m of manifests) writeManifest(dir, m.key, m);
  return dir;
}

/** Every page seen by role groups 1 and 2 (seeded, enabled), managed by 1. */
export function openTo(m: AddonManifest): PageRoles {
  return Object.fromEntries(m.pages.map((p) => [p.id, { view: [1, 2], manage: [1] }]));
}

/** The types of the events in the add-on's stream, in order. */
export async function addonEventTypes(t: TestPlatform, key: string): Promise<string[]> {
  return (await t.platform.stores.events.readStream(addonStream(key))).map((e) => e.type);
}

/** An administrator's browser: a logged-in client and its current CSRF token. */
export interface AdminBrowser {
  client: request.Agent;
  token: string;
}

export async function superAdmin(t: TestPlatform): Promise<AdminBrowser> {
  const client = t.client();
  return { client, token: await logInAdmin(client) };
}

/** The context of a command run from the CLI, outside any HTTP request. */
export const cliContext = (): CommandContext => ({
  actor: { kind: 'cli', id: 'test' },
  requestId: 'test',
  now: new Date(),
});

/** A new administrator in role group `role_id`, logged in on a browser of its own. */
export async function roleAdmin(t: TestPlatform, role_id: number): Promise<AdminBrowser & { id: number }> {
  const account = { username: uniqueUsername('op'), password: 'role-secret', is_super: false, role_id };
  const { id } = await createAdmin(t.platform.stores.events, argon2Hasher(), account, SHELL, cliContext());
  const client = t.client();
  return { id, client, token: await logInAdmin(client, { username: account.username, password: account.password }) };
}

export function act(admin: AdminBrowser, key: string, action: string, body: object = {}): request.Test {
  return admin.client.post(`${API}/addons/${key}/actions/${action}`).set('X-CSRF-Token', admin.token).send(body);
}

export function putAccess(admin: AdminBrowser, key: string, body: object): request.Test {
  return admin.client.put(`${API}/addons/${key}/access`).set('X-CSRF-Token', admin.token).send(body);
}

/**
 * A platform serving these add-ons for the tests of one file, with a super administrator logged in:
 * started before the file's first test, closed and its ADDONS_DIR removed after its last. Read its
 * fields inside tests or hooks, once it has started.
 */
export function platformWithAddons(manifests: AddonManifest[]): { t: TestPlatform; admin: AdminBrowser } {
  const started = {} as { t: TestPlatform; admin: AdminBrowser };
  const dir = addonsDir(manifests);
  beforeAll(async () => {
    started.t = await startPlatform({ ADDONS_DIR: dir });
    started.admin = await superAdmin(started.t);
  });
  afterAll(async () => {
    await started.t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return started;
}
