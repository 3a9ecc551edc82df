import { canonicalJson, chainFieldsOf, ChainFields } from '../../shared/domain/chain';
import { RecordedEvent } from '../../stores/ports';
import { leafHash } from './merkle';

/**
 * What a leaf of the log's Merkle tree holds (docs/audit.md, "Leaves"): every field the event's
 * digest covers, and besides them its id, its position in the log and the digest it recorded, so
 * that no field of an export line or a proof can be rewritten without changing the leaf. The leaf
 * hash is SHA-256(0x00 || the UTF-8 of this object's canonical JSON), RFC 9162 2.1.1.
 */
export interface LeafFields extends ChainFields {
  /** The event's id (what GET /audit/proof?event= takes); null for a store that gives none. */
  id: string | null;
  position: string;
  /** The digest the event recorded in its metadata; null for an event written before the chain. */
  digest: string | null;
}

export const leafBytes = (fields: LeafFields): Buffer => Buffer.from(canonicalJson(fields), 'utf8');

/** The leaf fields of a stored event: read from what it says, never from a digest it claims. */
export function leafFieldsOf(event: RecordedEvent): LeafFields {
  const metadata: unknown = event.metadata;
  const digest =
    typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).digest : undefined;
  return {
    ...chainFieldsOf(event),
    id: event.id ?? null,
    position: event.position,
    digest: typeof digest === 'string' ? digest : null,
  };
}

export const leafOf = (event: RecordedEvent): Buffer => leafHash(leafBytes(leafFieldsOf(event)));
