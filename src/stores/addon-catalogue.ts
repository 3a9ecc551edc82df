import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AddonCatalogue, AddonManifest, checkManifest } from '../addon/manifest';

export const MANIFEST_FILE = 'addon.json';

/**
 * Reads every `<dir>/<key>/addon.json`, once, at start-up. A manifest that cannot be read or
 * breaks a rule is logged with its path and what is wrong, and left out: one bad add-on must not
 * keep the service, or the other add-ons, from starting.
 */
export async function loadAddonCatalogue(dir: string, log: Logger): Promise<AddonCatalogue> {
  let directories: string[];
  try {
    directories = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (err) {
    log.warn({ dir, err: (err as Error).message }, 'add-on directory cannot be read: the catalogue is empty');
    return new Map();
  }
  const manifests: AddonManifest[] = [];
  for (const directory of directories.sort()) {
    const path = join(dir, directory, MANIFEST_FILE);
    const manifest = await readManifest(path, directory, log);
    if (manifest) manifests.push(manifest);
  }
  log.info({ dir, addons: manifests.map((m) => `${m.key}@${m.version}`) }, 'add-on catalogue loaded');
  return new Map(manifests.map((m) => [m.key, m]));
}

async function readManifest(path: string, directory: string, log: Logger): Promise<AddonManifest | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    log.warn({ path, err: (err as Error).message }, 'add-on manifest skipped: it cannot be read as JSON');
    return null;
  }
  const checked = checkManifest(json, directory);
  if (!checked.ok) {
    log.warn({ path, issues: checked.issues }, 'add-on manifest skipped: it breaks the manifest rules');
    return null;
  }
  return checked.manifest;
}
