import { createPublicKey, KeyObject, verify } from 'node:crypto';
import { canonicalJson } from '../../shared/domain/chain';
import { NoteKey, noteKeyOf, openNote, parseNote, parseVerifierKey } from './note';

/**
 * The keys an auditor trusts: public keys in PEM (GET /audit/key's public_key) and note verifier
 * keys (its verifier_key, `<name>+<hash>+<key>`). A note's signature names its key by name and
 * hash, so each is checked against that key alone; a PEM key carries no name, so it stands for
 * the key of whichever name a signature gives whose hash it makes.
 */
const PEM_BLOCK = /-----BEGIN [A-Z ]+-----[\s\S]*?-----END [A-Z ]+-----/g;

export class TrustedKeys {
  private constructor(
    private readonly pems: readonly KeyObject[],
    private readonly named: NoteKey[],
  ) {}

  /** Reads key files: PEM blocks and verifier keys, one a line, any number of each. */
  static fromTexts(texts: readonly { file: string; text: string }[]): TrustedKeys {
    const pems: KeyObject[] = [];
    const named: NoteKey[] = [];
    for (const { file, text } of texts) {
      const blocks = text.match(PEM_BLOCK) ?? [];
      for (const block of blocks) {
        try {
          pems.push(createPublicKey(block));
        } catch {
          throw new Error(`${file} holds a PEM block that is no public key: save data.public_key of GET /audit/key`);
        }
      }
      const rest = text
        .replace(PEM_BLOCK, '')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '');
      for (const line of rest) {
        try {
          named.push(parseVerifierKey(line));
        } catch (err) {
          throw new Error(
            `${file}: "${line}" is neither a PEM block nor a note verifier key: ${(err as Error).message}`,
          );
        }
      }
      if (blocks.length === 0 && rest.length === 0)
        throw new Error(`${file} holds no key: save data.public_key or data.verifier_key of GET /audit/key`);
    }
    return new TrustedKeys(pems, named);
  }

  /** Trusts one key more: a rotation the old key signed for. */
  add(key: NoteKey): void {
    if (!this.holds(key)) this.named.push(key);
  }

  holds(key: NoteKey): boolean {
    return (
      this.named.some((k) => k.verifierKey === key.verifierKey) ||
      this.pems.some((pem) => noteKeyOf(key.name, pem).verifierKey === key.verifierKey)
    );
  }

  /** The note's text and the trusted keys (and `also`) that signed it; throws MalformedNote otherwise. */
  open(note: string, also: readonly NoteKey[] = []): { text: string; signedBy: NoteKey[] } {
    const { signatures } = parseNote(note);
    const known = [...this.named, ...also];
    for (const { name } of signatures) {
      for (const pem of this.pems) {
        const key = noteKeyOf(name, pem);
        if (!known.some((k) => k.verifierKey === key.verifierKey)) known.push(key);
      }
    }
    return openNote(note, known);
  }

  /** Whether a checkpoint from before notes (a JSON payload, base64 signature, no key named) is signed by a trusted key. */
  holdsLegacySignature(payload: Record<string, unknown>, signature: unknown): boolean {
    if (typeof signature !== 'string') return false;
    const bytes = Buffer.from(canonicalJson(payload));
    return [...this.pems, ...this.named.map((k) => k.publicKey)].some((key) => {
      try {
        return verify(null, bytes, key, Buffer.from(signature, 'base64'));
      } catch {
        return false;
      }
    });
  }
}
