import type { Schemas } from '../api/client';

type AuditEvent = Schemas['AuditEvent'];
type Proof = Schemas['AuditProof'];

/**
 * The auditor's own check, in the browser, of what the service answered (docs/audit.md, "The
 * proof"): each event's digest recomputed from its fields, each link to the event before it, and
 * the event's leaf and its audit path to a checkpoint note whose Ed25519 signature holds. The service
 * is not trusted to say it verified: only the public key is.
 */

/** JSON with sorted keys and no whitespace, as the service encodes what a digest covers. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonical(field)}`).join(',')}}`;
}

const hexOf = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = (...parts: Uint8Array[]) =>
  crypto.subtle.digest('SHA-256', Uint8Array.from(parts.flatMap((p) => [...p])));

/** The fields an event's digest covers, canonical. */
function canonicalFields(e: AuditEvent): string {
  return canonical({
    stream: e.stream,
    revision: e.revision,
    type: e.type,
    schema_version: e.schema_version ?? 1,
    data: e.recorded_data ?? e.data,
    secrets: e.secrets ?? null,
    actor: e.actor ? { kind: e.actor.kind, id: e.actor.id } : null,
    time: e.time,
    reason: e.reason ?? null,
    request_id: e.request_id ?? null,
    prev_digest: e.prev_digest ?? null,
  });
}

/** The digest of the event as its fields say, whatever digest it claims. */
export async function digestOf(e: AuditEvent): Promise<string> {
  return hexOf(await sha256(new TextEncoder().encode(canonicalFields(e))));
}

/** Why each event of one stream, oldest first, does not verify, by position; the others hold. */
export async function brokenLinks(events: AuditEvent[]): Promise<Map<string, string>> {
  const broken = new Map<string, string>();
  let before: { revision: number; digest: string | null } | null = null;
  for (const e of events) {
    const digest = await digestOf(e);
    if (e.digest !== undefined && e.digest !== digest)
      broken.set(e.position, 'its fields do not match its digest: it was changed');
    else if (before && e.revision !== before.revision + 1) broken.set(e.position, 'an event before it is missing');
    else if (before && e.digest !== undefined && (e.prev_digest ?? null) !== before.digest)
      broken.set(e.position, 'it does not link to the event before it');
    before = { revision: e.revision, digest: e.digest === undefined ? null : digest };
  }
  return broken;
}

/** What a checkpoint note signs (c2sp.org/tlog-checkpoint): the tree size, its root, when it was signed. */
export interface SignedTree {
  size: number;
  root: Uint8Array;
  time: string;
}

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The leaf the service must have hashed for this event: its chained fields, id, position and digest, canonical. */
async function leafOf(e: AuditEvent): Promise<string> {
  const fields = JSON.parse(canonicalFields(e)) as Record<string, unknown>;
  return canonical({ ...fields, id: e.id ?? null, position: e.position, digest: e.digest ?? null });
}

/** Whether the verifier key (`<name>+<hash>+<base64(0x01 ‖ key)>`) signed the note's text (c2sp.org/signed-note). */
async function signedBy(text: string, signatureLines: string[], verifierKey: string): Promise<boolean> {
  // The base64 key may hold '+' too: only the first two separate.
  const [, name, hash, encoded] = /^([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(verifierKey) ?? [];
  if (!name || !hash || !encoded) return false;
  const key = await crypto.subtle.importKey('raw', fromBase64(encoded).slice(1), { name: 'Ed25519' }, false, [
    'verify',
  ]);
  const prefix = `\u2014 ${name} `;
  const bytes = new TextEncoder().encode(text);
  for (const line of signatureLines.filter((l) => l.startsWith(prefix))) {
    const signature = fromBase64(line.slice(prefix.length));
    const named = [...signature.slice(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join('') === hash;
    if (named && (await crypto.subtle.verify({ name: 'Ed25519' }, key, signature.slice(4), bytes))) return true;
  }
  return false;
}

/**
 * The note's tree, when the verifier key signed it and its origin is the key's name; null when it
 * did not, or the note is not a checkpoint (c2sp.org/tlog-checkpoint).
 */
async function signedTree(note: string, verifierKey: string): Promise<SignedTree | null> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0) return null;
  const text = note.slice(0, split + 1);
  if (!(await signedBy(text, note.slice(split + 2).split('\n'), verifierKey))) return null;
  const [origin, size, root, ...extensions] = text.split('\n');
  if (origin !== verifierKey.split('+')[0] || !/^\d+$/.test(size ?? '') || !root) return null;
  return {
    size: Number(size),
    root: fromBase64(root),
    time: extensions.find((line) => line.startsWith('time '))?.slice(5) ?? '',
  };
}

/** RFC 9162, 2.1.3.2: whether the path leads from the leaf hash at `index` to the tree's root. */
async function pathHolds(index: number, leaf: Uint8Array, path: string[], tree: SignedTree): Promise<boolean> {
  let fn = index;
  let sn = tree.size - 1;
  let r = new Uint8Array(await sha256(Uint8Array.of(0), leaf));
  for (const hash of path) {
    if (sn === 0) return false;
    const p = fromBase64(hash);
    if (fn % 2 === 1 || fn === sn) {
      r = new Uint8Array(await sha256(Uint8Array.of(1), p, r));
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = new Uint8Array(await sha256(Uint8Array.of(1), r, p));
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return index < tree.size && sn === 0 && equal(r, tree.root);
}

/**
 * The signed tree that holds the event, when everything holds: the event's digest, the proof's leaf
 * being this event's own, its path to the root, and the note's signature by the verifier key.
 */
export async function provenIn(proof: Proof, event: AuditEvent, verifierKey: string): Promise<SignedTree | null> {
  const digest = await digestOf(event);
  if (event.digest !== undefined && event.digest !== digest) return null;
  const leaf = fromBase64(proof.leaf);
  if (new TextDecoder().decode(leaf) !== (await leafOf(event))) return null;
  const tree = await signedTree(proof.checkpoint, verifierKey);
  return tree && (await pathHolds(proof.leaf_index, leaf, proof.audit_path, tree)) ? tree : null;
}
