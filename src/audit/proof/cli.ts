import { Command } from 'commander';
import { createPublicKey } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseSettings } from '../../config';
import { digestOf } from '../../shared/domain/chain';
import { withStores } from '../../shared/cli/run';
import { checkpointPayload } from './checkpoint';
import { keyFilesOf, previousKeyFile, rotateKeyFile } from './key-ring';
import { recordRotation } from './rotation';
import { holdsProof } from './inclusion';
import { holdsSignature, loadSigningKey } from './signing-key';
import { chainFieldsOfLine, verifyExport } from './verify';

/** `platform audit`: the signing key's public half, and the offline checks of an export or a proof. */
export function auditCommand(): Command {
  const audit = new Command('audit').description('the proof that the event log is whole: the public key, and checking an export or a proof offline');
  audit
    .command('key')
    .description('print the public key (PEM) that checkpoints and export heads are signed with')
    .option('--create', 'create the key (AUDIT_SIGNING_KEY_FILE) when there is none yet, once, before the first start of a deployment whose processes share it')
    .option('--rotate', 'replace the key with a new one, keeping the old one beside it as <file>.previous-<key hash>; the log records the rotation, and the next checkpoint is signed by both')
    .action(async (options: { create?: boolean; rotate?: boolean }) => {
      const keys = keyFilesOf(parseSettings(process.env));
      // Only with --create: a key minted here would be one the service never signed with.
      if (!options.create && !existsSync(keys.file)) {
        throw new Error(`no signing key at ${keys.file}: the service creates it on its first start on the embedded stores; else create it with \`platform audit key --create\` (AUDIT_SIGNING_KEY_FILE)`);
      }
      if (options.rotate) {
        await withStores(async (stores, ctx) => {
          const { previous, next } = await rotateKeyFile(keys, (p, n) => recordRotation(stores.events, ctx, { previous: p.noteKey.verifierKey, next: n.noteKey.verifierKey }));
          process.stdout.write(`rotated the audit signing key: ${previous.noteKey.verifierKey} kept as ${previousKeyFile(keys.file, previous)}; now ${next.noteKey.verifierKey}\n`);
        });
        return;
      }
      process.stdout.write(loadSigningKey(keys.file, { create: options.create === true, origin: keys.origin }).publicKeyPem);
    });
  audit
    .command('verify <file>')
    .description('check an export (GET /audit/events): every chain link, checkpoint root and signature, and its signed head')
    .option('--public-key <pem-file>', 'the public key from GET /audit/key or `platform audit key`; default: this installation\'s key')
    .action((file: string, options: { publicKey?: string }) => {
      const lines = readLines(file);
      const verdict = verifyExport(lines, publicKeyOf(options.publicKey));
      if (!verdict.ok) throw new Error(`the export does not verify: line ${verdict.line}: ${verdict.problem}`);
      process.stdout.write(`${verdict.summary}\n`);
    });
  audit
    .command('verify-proof <file>')
    .description('check an inclusion proof (GET /audit/proof): the event, its path to the checkpoint root, and the signature')
    .option('--public-key <pem-file>', 'the public key from GET /audit/key or `platform audit key`; default: this installation\'s key')
    .action((file: string, options: { publicKey?: string }) => {
      process.stdout.write(`${checkProof(readJson(file), publicKeyOf(options.publicKey))}\n`);
    });
  return audit;
}

function configuredKeyFile(): string {
  return parseSettings(process.env).AUDIT_SIGNING_KEY_FILE;
}

/** The public key, PEM, from the file given (a public or a private key), or this installation's. */
function publicKeyOf(file: string | undefined): string {
  const from = file ?? configuredKeyFile();
  if (file === undefined && !existsSync(from)) throw new Error(`no signing key at ${from}: give the public key with --public-key <pem-file> (GET /audit/key)`);
  try {
    return createPublicKey(readFileSync(from, 'utf8')).export({ type: 'spki', format: 'pem' }).toString();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${from}: no such file`);
    throw new Error(`${from} holds no public key in PEM: save data.public_key of GET /audit/key`);
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file}: cannot be read`);
  }
}

function readLines(file: string): Record<string, unknown>[] {
  return readText(file)
    .split('\n')
    .map((text, index) => ({ text, index }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, index }) => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new Error(`the export does not verify: line ${index + 1} is not JSON`);
      }
    });
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readText(file)) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error(`${file} is not JSON: save the answer of GET /audit/proof`);
    throw err;
  }
}

type Proof = Parameters<typeof holdsProof>[1] & {
  event: Parameters<typeof chainFieldsOfLine>[0];
  checkpoint: { number: number; position: string; count: number; root: string; signed_at: string; signature: string };
};

/** The proof as GET /audit/proof answers it, envelope or not. */
function checkProof(answer: Record<string, unknown>, publicKeyPem: string): string {
  const proof = ('data' in answer ? answer.data : answer) as Proof;
  if (!proof?.event || !proof.checkpoint || !Array.isArray(proof.path)) throw new Error('not a proof: save the answer of GET /audit/proof');
  const { event, checkpoint } = proof;
  const digest = digestOf(chainFieldsOfLine(event));
  const named = `event ${event.type} #${event.revision} of ${event.stream} at position ${event.position}`;
  if (event.digest !== undefined && event.digest !== digest) throw new Error(`the proof does not verify: ${named} does not match its digest: a field of it was changed`);
  if (!holdsSignature(publicKeyPem, checkpointPayload(checkpoint), checkpoint.signature)) {
    throw new Error(`the proof does not verify: checkpoint ${checkpoint.number} does not verify: it was changed or forged, or signed with another key`);
  }
  if (!holdsProof(digest, proof)) throw new Error(`the proof does not verify: the path does not lead from ${named} to the root of checkpoint ${checkpoint.number}`);
  return `OK: ${named} is leaf ${proof.leaf_index} of the ${checkpoint.count} events of checkpoint ${checkpoint.number}, signed at ${checkpoint.signed_at}`;
}
