import { EventStore } from '../../stores/ports';
import { KEY_ROTATED_TYPE, KEY_STREAM, KeyRotated } from './checkpoint';
import { NoteKey, parseVerifierKey } from './note';
import { SigningKey } from './signing-key';

export interface PublishedKey {
  verifier_key: string;
  key_hash: string;
  public_key: string;
  current: boolean;
}

const published = (key: NoteKey, current: boolean): PublishedKey => ({
  verifier_key: key.verifierKey,
  key_hash: key.hash,
  public_key: key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  current,
});

/**
 * The keys an auditor needs, read from the log's rotations rather than from the files beside the
 * key: every API process answers the same list, the keys that signed the earlier checkpoints first.
 */
export async function auditKeysOf(events: EventStore, current: SigningKey) {
  const rotations = (await events.readStream(KEY_STREAM))
    .filter((e) => e.type === KEY_ROTATED_TYPE)
    .map((e) => e.data as KeyRotated);
  const named = [...new Set(rotations.flatMap((r) => [r.previous, r.next]))].filter(
    (k) => k !== current.noteKey.verifierKey,
  );
  const keys = [...named.map((k) => published(parseVerifierKey(k), false)), published(current.noteKey, true)];
  return {
    algorithm: 'Ed25519' as const,
    public_key: current.publicKeyPem,
    verifier_key: current.noteKey.verifierKey,
    key_hash: current.noteKey.hash,
    keys,
  };
}
