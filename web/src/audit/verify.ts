import type { Schemas } from '../api/client';

type AuditEvent = Schemas['AuditEvent'];
type Proof = Schemas['AuditProof'];

/**
 * The auditor's own check, in the browser, of what the service answered (docs/audit.md, "The
 * proof"): each event's digest recomputed from its fields, each link to the event before it, and
 * the Merkle path from the last event to a checkpoint whose Ed25519 signature holds. The service
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

const bytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const hexOf = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
const sha256 = (...parts: Uint8Array[]) => crypto.subtle.digest('SHA-256', Uint8Array.from(parts.flatMap((p) => [...p])));

/** The digest of the event as its fields say, whatever digest it claims. */
export async function digestOf(e: AuditEvent): Promise<string> {
  const fields = {
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
  };
  return hexOf(await sha256(new TextEncoder().encode(canonical(fields))));
}

/** Why each event of one stream, oldest first, does not verify, by position; the others hold. */
export async function brokenLinks(events: AuditEvent[]): Promise<Map<string, string>> {
  const broken = new Map<string, string>();
  let before: { revision: number; digest: string | null } | null = null;
  for (const e of events) {
    const digest = await digestOf(e);
    if (e.digest !== undefined && e.digest !== digest) broken.set(e.position, 'its fields do not match its digest: it was changed');
    else if (before && e.revision !== before.revision + 1) broken.set(e.position, 'an event before it is missing');
    else if (before && e.digest !== undefined && (e.prev_digest ?? null) !== before.digest) broken.set(e.position, 'it does not link to the event before it');
    before = { revision: e.revision, digest: e.digest === undefined ? null : digest };
  }
  return broken;
}

/** RFC 9162, 2.1.3.2: whether the path leads from the event's leaf to the checkpoint's root. */
async function pathHolds(proof: Proof, digest: string): Promise<boolean> {
  let fn = proof.leaf_index;
  let sn = proof.checkpoint.count - 1;
  let r = new Uint8Array(await sha256(Uint8Array.of(0), bytes(digest)));
  for (const hex of proof.path) {
    if (sn === 0) return false;
    const p = bytes(hex);
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
  return sn === 0 && hexOf(r.buffer) === proof.checkpoint.root;
}

async function signatureHolds(proof: Proof, publicKeyPem: string): Promise<boolean> {
  const { number, position, count, root, signed_at, signature } = proof.checkpoint;
  const der = Uint8Array.from(atob(publicKeyPem.replace(/-----[^-]+-----|\s/g, '')), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('spki', der, { name: 'Ed25519' }, false, ['verify']);
  const payload = new TextEncoder().encode(canonical({ kind: 'checkpoint', number, position, count, root, signed_at }));
  return crypto.subtle.verify({ name: 'Ed25519' }, key, Uint8Array.from(atob(signature), (c) => c.charCodeAt(0)), payload);
}

/** Whether the proof holds: the event's digest, its path to the root, the checkpoint's signature. */
export async function proofHolds(proof: Proof, publicKeyPem: string): Promise<boolean> {
  const digest = await digestOf(proof.event);
  if (proof.event.digest !== undefined && proof.event.digest !== digest) return false;
  return (await pathHolds(proof, digest)) && (await signatureHolds(proof, publicKeyPem));
}
