import { z } from 'zod';
import { MalformedNote } from './note';
import { holdsConsistency } from './paths';
import { parseTreeHead, TreeHead } from './tree-head';
import { TrustedKeys } from './trusted-keys';
import { Verified } from './verify';

/**
 * That a verified export is a prefix of a newer checkpoint (docs/audit.md, "Is it the latest?"):
 * the RFC 9162 consistency proof from the export's tree to the checkpoint's. The export's tree is
 * the tree of all its events when it starts at the beginning of the log (its tail after the last
 * checkpoint is proven too), else the tree its last signed checkpoint signs.
 */

const consistencyAnswerSchema = z.object({
  proof: z.array(z.string()),
  from_checkpoint: z.string().nullable().optional(),
  to_checkpoint: z.string().nullable().optional(),
});

export type ConsistencyAnswer = z.infer<typeof consistencyAnswerSchema>;

export class NotFresh extends Error {}

/** The tree the proof must start from: its size and root. */
export function exportTree(verified: Verified): { size: number; root: Buffer } {
  if (verified.fromStart) return { size: verified.size, root: verified.root };
  const last = verified.lastCheckpoint;
  if (last?.root) return { size: last.size, root: last.root };
  throw new NotFresh(
    'the export neither starts at the beginning of the log nor holds a signed checkpoint note: there is no tree to prove it a prefix of the newer one',
  );
}

export function openCheckpoint(note: string, keys: TrustedKeys, what: string): TreeHead {
  try {
    return parseTreeHead(keys.open(note).text);
  } catch (err) {
    if (err instanceof MalformedNote) throw new NotFresh(`${what} does not verify: ${err.message}`);
    throw new NotFresh(`${what} is not a checkpoint: ${(err as Error).message}`);
  }
}

/** The answer of GET /audit/consistency, envelope or not. */
export function consistencyAnswerOf(answer: unknown): ConsistencyAnswer {
  const data = typeof answer === 'object' && answer !== null && 'data' in answer ? answer.data : answer;
  const parsed = consistencyAnswerSchema.safeParse(data);
  if (!parsed.success)
    throw new NotFresh('the consistency answer holds no proof: save the answer of GET /audit/consistency?from=M&to=N');
  return parsed.data;
}

/** The sentence that says the export is a prefix of `newer`; throws NotFresh otherwise. */
export function checkFreshness(
  verified: Verified,
  origin: string,
  newer: TreeHead,
  answer: ConsistencyAnswer,
  keys: TrustedKeys,
): string {
  if (newer.origin !== origin)
    throw new NotFresh(`the newer checkpoint is of the log ${newer.origin}, the export of ${origin}`);
  const tree = exportTree(verified);
  checkEnd(answer, 'from_checkpoint', tree, keys, `starts from another tree than the export's (size ${tree.size})`);
  checkEnd(answer, 'to_checkpoint', newer, keys, `ends at another tree than the newer checkpoint (size ${newer.size})`);
  const proof = answer.proof.map((hash) => Buffer.from(hash, 'base64'));
  if (!holdsConsistency(tree.size, newer.size, tree.root, newer.root, proof)) {
    throw new NotFresh(
      `the export's ${tree.size} events are not a prefix of the checkpoint of size ${newer.size} signed at ${newer.time}: the log was rewritten after it, or the proof is not for these trees`,
    );
  }
  return `the export's first ${tree.size} events of the log are a prefix of the checkpoint of size ${newer.size} signed at ${newer.time}`;
}

/** A checkpoint the consistency answer names at one of its ends must be of the tree this check expects there. */
function checkEnd(
  answer: ConsistencyAnswer,
  end: 'from_checkpoint' | 'to_checkpoint',
  expected: { size: number; root: Buffer },
  keys: TrustedKeys,
  otherwise: string,
): void {
  const checkpoint = answer[end];
  if (!checkpoint) return;
  const head = openCheckpoint(checkpoint, keys, `the consistency answer's ${end}`);
  if (head.size !== expected.size || !head.root.equals(expected.root)) {
    throw new NotFresh(`the consistency answer ${otherwise}`);
  }
}
