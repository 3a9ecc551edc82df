import { z } from 'zod';
import { canonicalJson } from '../../shared/domain/chain';
import { LeafFields } from './leaf';
import { leafHash } from './merkle';
import { MalformedNote } from './note';
import { holdsInclusion } from './paths';
import { NotStrictJson, parseStrictJson } from './strict-json';
import { parseTreeHead } from './tree-head';
import { TrustedKeys } from './trusted-keys';

/**
 * An inclusion proof (GET /audit/proof) checked offline: the leaf's bytes hashed, the audit path
 * followed to the root of the signed checkpoint note. What it prints of the event is decoded from
 * those leaf bytes, so nothing it shows is unchecked.
 */

const proofSchema = z.object({
  leaf_index: z.int().min(0),
  leaf: z.string(),
  audit_path: z.array(z.string()),
  checkpoint: z.string(),
});

const leafSchema = z.strictObject({
  stream: z.string(),
  revision: z.int().min(0),
  type: z.string(),
  schema_version: z.int(),
  data: z.unknown(),
  secrets: z.string().nullable(),
  actor: z.object({ kind: z.unknown(), id: z.unknown() }).nullable(),
  time: z.string().nullable(),
  reason: z.string().nullable(),
  request_id: z.string().nullable(),
  prev_digest: z.string().nullable(),
  id: z.string().nullable(),
  position: z.string(),
  digest: z.string().nullable(),
});

export class ProofRefused extends Error {}

/** The lines that say what the proof proves; throws ProofRefused saying what does not hold. */
export function checkProof(answer: unknown, keys: TrustedKeys): string {
  const data = typeof answer === 'object' && answer !== null && 'data' in answer ? answer.data : answer;
  if (typeof data === 'object' && data !== null && 'event' in data && 'path' in data) {
    throw new ProofRefused(
      'this proof is in the shape from before signed notes (event, path, a checkpoint object): ask GET /audit/proof again of a service that answers leaf, audit_path and a checkpoint note',
    );
  }
  const parsed = proofSchema.safeParse(data);
  if (!parsed.success)
    throw new ProofRefused(
      'not a proof: save the answer of GET /audit/proof (leaf_index, leaf, audit_path, checkpoint)',
    );
  const proof = parsed.data;
  const bytes = Buffer.from(proof.leaf, 'base64');
  const leaf = leafOf(bytes);
  let head: ReturnType<typeof parseTreeHead>;
  try {
    head = parseTreeHead(keys.open(proof.checkpoint).text);
  } catch (err) {
    const why = err instanceof MalformedNote ? 'does not verify' : 'is not a checkpoint';
    throw new ProofRefused(`the proof's checkpoint ${why}: ${(err as Error).message}`);
  }
  const named = `event ${leaf.type} #${leaf.revision} of ${leaf.stream} at position ${leaf.position}`;
  const path = proof.audit_path.map((hash) => Buffer.from(hash, 'base64'));
  if (!holdsInclusion(proof.leaf_index, head.size, leafHash(bytes), path, head.root)) {
    throw new ProofRefused(
      `the path does not lead from ${named} to the root of the checkpoint of size ${head.size}: the leaf, the path or the index was changed`,
    );
  }
  return [
    `OK: ${named} is leaf ${proof.leaf_index} of the ${head.size} events of the checkpoint of ${head.origin} signed at ${head.time}`,
    ...Object.entries(leaf)
      .filter(([name]) => !['stream', 'revision', 'type', 'position'].includes(name))
      .map(([name, value]) => `  ${name}: ${typeof value === 'string' ? value : canonicalJson(value)}`),
  ].join('\n');
}

/** The leaf's fields, from bytes that must be their canonical JSON and nothing else. */
function leafOf(bytes: Buffer): LeafFields {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = parseStrictJson(text);
  } catch (err) {
    if (err instanceof NotStrictJson) throw new ProofRefused(`the leaf ${err.message}`);
    throw err;
  }
  const fields = leafSchema.safeParse(value);
  if (!fields.success)
    throw new ProofRefused('the leaf does not hold the fields of an event (docs/audit.md, "Leaves")');
  if (canonicalJson(value) !== text || !Buffer.from(text, 'utf8').equals(bytes))
    throw new ProofRefused('the leaf is not in canonical JSON: its bytes are not the ones a leaf hash is made of');
  return fields.data as LeafFields;
}
