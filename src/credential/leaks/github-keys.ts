import { readFileSync } from 'node:fs';
import { createPublicKey, KeyObject } from 'node:crypto';
import { z } from 'zod';

/** GitHub's public keys for secret scanning, as https://api.github.com/meta/public_keys/secret_scanning answers them. */
const keyListSchema = z.object({
  public_keys: z.array(z.object({ key_identifier: z.string(), key: z.string(), is_current: z.boolean() })),
});

/** A key list that cannot be had: the report is refused with 503, and GitHub sends it again. */
export class ScanningKeysUnavailable extends Error {}

/** A P-256 public key from its PEM; null for anything else, which no GitHub signature is made with. */
function p256(pem: string): KeyObject | null {
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1' ? key : null;
  } catch {
    return null;
  }
}

/** The keys by identifier, each parsed once; an entry that is not a P-256 key is left out, not fatal. */
function parseKeyList(json: unknown): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const { key_identifier, key } of keyListSchema.parse(json).public_keys) {
    const parsed = p256(key);
    if (parsed) keys.set(key_identifier, parsed);
  }
  return keys;
}

export interface ScanningKeys {
  /** The public key of this identifier; null when the list has no such key. */
  keyFor(identifier: string): Promise<KeyObject | null>;
}

/** The keys of a file in the public-keys format (SECRET_SCANNING_KEYS_FILE), read once. */
export function scanningKeysFromFile(path: string): ScanningKeys {
  const keys = parseKeyList(JSON.parse(readFileSync(path, 'utf8')));
  return { keyFor: async (identifier) => keys.get(identifier) ?? null };
}

// An unknown identifier may be a key GitHub has just started to use: the list is fetched again,
// but at most once a minute, so that made-up identifiers cannot make the service hammer GitHub.
const REFETCH_MS = 60_000;
const FETCH_TIMEOUT_MS = 5_000;

/** The keys at SECRET_SCANNING_KEYS_URL, fetched when first needed and again for an unknown identifier. */
export function scanningKeysFromUrl(url: string, now: () => number = Date.now): ScanningKeys {
  let keys: Map<string, KeyObject> | null = null;
  let fetchedAt = -Infinity;
  let fetching: Promise<void> | null = null;

  const refetch = () =>
    (fetching ??= (async () => {
      fetchedAt = now();
      try {
        const response = await fetch(url, {
          headers: { Accept: 'application/json' },
          signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`answered ${response.status}`);
        keys = parseKeyList(await response.json());
      } catch (err) {
        if (!keys)
          throw new ScanningKeysUnavailable(`the secret-scanning keys at ${url} cannot be read: ${String(err)}`);
      } finally {
        fetching = null;
      }
    })());

  return {
    async keyFor(identifier) {
      if (!keys?.has(identifier) && now() - fetchedAt >= REFETCH_MS) await refetch();
      return keys?.get(identifier) ?? null;
    },
  };
}
