import { readdir, readFile, stat } from 'node:fs/promises';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AddonCatalogue, AddonManifest, checkManifest } from '../addon';

export const MANIFEST_FILE = 'addon.json';

/**
 * Reads every `<dir>/<key>/addon.json`, once, at start-up. A manifest that cannot be read or
 * breaks a rule is logged with its path and what is wrong, and left out: one bad add-on must not
 * keep the service, or the other add-ons, from starting.
 */
export async function loadAddonCatalogue(dir: string, log: Logger): Promise<AddonCatalogue> {
  let directories: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    directories = (
      await Promise.all(entries.map(async (e) => ((await isDirectory(dir, e, log)) ? e.name : null)))
    ).filter((name) => name !== null);
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

/**
 * A directory, or a symbolic link to one: container mounts (a Kubernetes ConfigMap, a Docker
 * volume) often give an add-on's directory as a link. A link that leads nowhere is said, not
 * passed over in silence.
 */
async function isDirectory(dir: string, entry: Dirent, log: Logger): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  const path = join(dir, entry.name);
  try {
    return (await stat(path)).isDirectory();
  } catch (err) {
    log.warn({ path, err: (err as Error).message }, 'add-on directory skipped: its symbolic link leads nowhere');
    return false;
  }
}

// Editors on Windows may save a byte order mark, which JSON.parse refuses.
const BOM = '\uFEFF';

async function readManifest(path: string, directory: string, log: Logger): Promise<AddonManifest | null> {
  let json: unknown;
  try {
    const text = await readFile(path, 'utf8');
    json = JSON.parse(text.startsWith(BOM) ? text.slice(1) : text);
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
