import { z } from 'zod';
import { canonicalJson } from '../../shared/domain/chain';
import { ExportHead, exportHeadLine, parseExportHead } from '../export-head';
import { MalformedNote } from './note';
import { Refused } from './refused';
import { TrustedKeys } from './trusted-keys';

const headLineSchema = z.strictObject({
  from: z.string(),
  next: z.string(),
  count: z.int().min(0),
  more: z.boolean(),
  root: z.string(),
  lines: z.string(),
  signed_at: z.string(),
  note: z.string(),
});

/**
 * A page's head line: its note signed by a trusted key, for the log its signer names, and every
 * other field of the line what the note says (they are there for clients that page, unsigned).
 */
export function checkHeadLine(value: unknown, keys: TrustedKeys, n: number): ExportHead {
  const line = headLineSchema.safeParse(value);
  if (!line.success) {
    const issue = line.error.issues[0]!;
    throw new Refused(
      n,
      issue.code === 'unrecognized_keys'
        ? `the export head holds a field no head has (${issue.keys.join(', ')})`
        : `the export head's ${issue.path.join('.')} is not as an export writes it`,
    );
  }
  let opened: ReturnType<TrustedKeys['open']>;
  try {
    opened = keys.open(line.data.note);
  } catch (err) {
    if (!(err instanceof MalformedNote)) throw err;
    throw new Refused(n, `the export's signed head does not verify: ${err.message}`);
  }
  let head: ExportHead;
  try {
    head = parseExportHead(opened.text);
  } catch (err) {
    throw new Refused(n, `the export's signed head is not an export head: ${(err as Error).message}`);
  }
  if (!opened.signedBy.some((key) => key.name === head.origin))
    throw new Refused(n, `the export head names the log ${head.origin}, and no key of that name signed it`);
  const signed = exportHeadLine(head, line.data.note) as unknown as Record<string, unknown>;
  const shown = line.data as Record<string, unknown>;
  const changed = Object.keys(signed).find((field) => canonicalJson(signed[field]) !== canonicalJson(shown[field]));
  if (changed) throw new Refused(n, `the export head shows a ${changed} its signed note does not say: it was changed`);
  return head;
}
