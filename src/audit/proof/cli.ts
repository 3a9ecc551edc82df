import { Command } from 'commander';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseSettings } from '../../config';
import type { withStores } from '../../shared/cli/run';
import { Describe } from '../event';
import { checkFreshness, ConsistencyAnswer, consistencyAnswerOf, exportTree, openCheckpoint } from './freshness';
import { keyFilesOf, previousKeyFile, rotateKeyFile } from './key-ring';
import { checkProof } from './proof-check';
import { Refused } from './refused';
import { recordRotation } from './rotation';
import { loadSigningKey } from './signing-key';
import { TrustedKeys } from './trusted-keys';
import { ExportVerifier, Verified } from './verify';

interface VerifyOptions {
  publicKey: string[];
  checkpoint?: string;
  consistency?: string;
  url?: string;
  header: string[];
}

const collect = (value: string, list: string[]) => [...list, value];

/**
 * `platform audit`: the signing key's public half, and the offline checks of an export or a proof.
 * `describe` words each event as its slice does; `stores` opens the stores, for `key --rotate`
 * alone: given, not imported, so that an auditor's offline checks load no store driver.
 */
export function auditCommand(describe: Describe, stores: typeof withStores): Command {
  const audit = new Command('audit').description(
    'the proof that the event log is whole: the public key, and checking an export or a proof offline',
  );
  audit
    .command('key')
    .description('print the public key (PEM) that checkpoints and export heads are signed with')
    .option(
      '--create',
      'create the key (AUDIT_SIGNING_KEY_FILE) when there is none yet, once, before the first start of a deployment whose processes share it',
    )
    .option(
      '--rotate',
      'replace the key with a new one, keeping the old one beside it as <file>.previous-<key hash>; the log records the rotation, and the next checkpoint is signed by both',
    )
    .action(async (options: { create?: boolean; rotate?: boolean }) => {
      const keys = keyFilesOf(parseSettings(process.env));
      // Only with --create: a key minted here would be one the service never signed with.
      if (!options.create && !existsSync(keys.file)) {
        throw new Error(
          `no signing key at ${keys.file}: the service creates it on its first start on the embedded stores; else create it with \`platform audit key --create\` (AUDIT_SIGNING_KEY_FILE)`,
        );
      }
      if (options.rotate) {
        await stores(async ({ events }, ctx) => {
          const { previous, next } = await rotateKeyFile(keys, (p, n) =>
            recordRotation(events, ctx, { previous: p.noteKey.verifierKey, next: n.noteKey.verifierKey }),
          );
          process.stdout.write(
            `rotated the audit signing key: ${previous.noteKey.verifierKey} kept as ${previousKeyFile(keys.file, previous)}; now ${next.noteKey.verifierKey}\n`,
          );
        });
        return;
      }
      process.stdout.write(
        loadSigningKey(keys.file, { create: options.create === true, origin: keys.origin }).publicKeyPem,
      );
    });
  audit
    .command('verify <file>')
    .description(
      'check an export (GET /audit/events) a line at a time: every line against its leaf, every chain link, checkpoint and signed head',
    )
    .option(
      '--public-key <file>',
      "a trusted key: PEM blocks and/or note verifier keys, one a line (GET /audit/key); repeatable; default: this installation's key",
      collect,
      [],
    )
    .option('--checkpoint <note-file>', 'a newer signed checkpoint note: prove the export a prefix of it')
    .option('--consistency <file>', 'with --checkpoint: the saved answer of GET /audit/consistency?from=M&to=N')
    .option(
      '--url <api-base>',
      'with --checkpoint: ask GET <api-base>/audit/consistency for the proof instead (e.g. https://api.example.com/api/v1)',
    )
    .option(
      '--header <name: value>',
      'with --url: a header to send, e.g. "Cookie: PHPSESSID=…" of a signed-in auditor; repeatable',
      collect,
      [],
    )
    .action(async (file: string, options: VerifyOptions) => {
      // The heap is kept small by the process that runs this (src/cli.ts), not here: flags set at run
      // time last as long as the process, which may be another program's (a test runner's).
      const keys = trustedKeys(options.publicKey);
      const verified = await verifyFile(file, keys, describe);
      const fresh = options.checkpoint === undefined ? null : await freshness(verified, options, keys);
      process.stdout.write(`${summaryOf(verified, fresh)}\n`);
    });
  audit
    .command('verify-proof <file>')
    .description(
      'check an inclusion proof (GET /audit/proof): the leaf, its audit path to the checkpoint root, and the checkpoint signature; prints the event from the leaf',
    )
    .option('--public-key <file>', 'a trusted key, as for verify; repeatable', collect, [])
    .action((file: string, options: { publicKey: string[] }) => {
      process.stdout.write(`${checkProof(readJson(file, 'GET /audit/proof'), trustedKeys(options.publicKey))}\n`);
    });
  return audit;
}

function configuredKeyFile(): string {
  return parseSettings(process.env).AUDIT_SIGNING_KEY_FILE;
}

/** The keys given, or this installation's when none is. */
function trustedKeys(files: readonly string[]): TrustedKeys {
  if (files.length === 0) {
    const own = configuredKeyFile();
    if (!existsSync(own))
      throw new Error(`no signing key at ${own}: give the public key with --public-key <file> (GET /audit/key)`);
    const settings = parseSettings(process.env);
    return TrustedKeys.fromTexts([
      { file: own, text: loadSigningKey(own, { create: false, origin: settings.AUDIT_LOG_ORIGIN }).publicKeyPem },
    ]);
  }
  return TrustedKeys.fromTexts(files.map((file) => ({ file, text: readText(file) })));
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file}: cannot be read`);
  }
}

function readJson(file: string, answerOf: string): unknown {
  try {
    return JSON.parse(readText(file));
  } catch (err) {
    if (err instanceof SyntaxError) throw new Error(`${file} is not JSON: save the answer of ${answerOf}`);
    throw err;
  }
}

/** Reads the export a line at a time: what it holds stays on disk. */
async function verifyFile(file: string, keys: TrustedKeys, describe: Describe): Promise<Verified> {
  const verifier = new ExportVerifier(keys, describe);
  const input = createReadStream(file, { encoding: 'utf8' });
  const unreadable = new Promise<never>((_, fail) =>
    input.once('error', () => fail(new Error(`${file}: cannot be read`))),
  );
  let n = 0;
  try {
    const lines = createInterface({ input, crlfDelay: Infinity });
    const verified = (async () => {
      for await (const line of lines) verifier.take(line, ++n);
    })();
    await Promise.race([unreadable, verified]);
    return verifier.end();
  } catch (err) {
    if (err instanceof Refused) throw new Error(`the export does not verify: line ${err.line}: ${err.problem}`);
    throw err;
  } finally {
    input.destroy();
  }
}

async function freshness(verified: Verified, options: VerifyOptions, keys: TrustedKeys): Promise<string> {
  const newer = openCheckpoint(readText(options.checkpoint!), keys, options.checkpoint!);
  const answer =
    options.consistency !== undefined
      ? consistencyAnswerOf(readJson(options.consistency, 'GET /audit/consistency'))
      : await askConsistency(verified, newer.size, options);
  return checkFreshness(verified, verified.lastHead.origin, newer, answer, keys);
}

async function askConsistency(verified: Verified, to: number, options: VerifyOptions): Promise<ConsistencyAnswer> {
  if (options.url === undefined)
    throw new Error(
      '--checkpoint needs the consistency proof: --consistency <file> (GET /audit/consistency), or --url <api-base> to ask for it',
    );
  const url = `${options.url.replace(/\/$/, '')}/audit/consistency?from=${exportTree(verified).size}&to=${to}`;
  const headers = Object.fromEntries(
    options.header.map((h) => [h.slice(0, h.indexOf(':')).trim(), h.slice(h.indexOf(':') + 1).trim()]),
  );
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return consistencyAnswerOf(await res.json());
}

/** What held, in one line: never a bare OK, always up to which signed tree and when. */
function summaryOf(v: Verified, fresh: string | null): string {
  const held = `OK: ${v.events} events, ${v.links} chain links, ${v.checkpoints} checkpoints and ${v.heads} signed export heads hold`;
  const last = v.lastCheckpoint;
  const upTo = last
    ? `verified up to the checkpoint of size ${last.size}, signed at ${last.time}`
    : `no checkpoint in it: vouched for by its signed heads alone, the last signed at ${v.lastHead.time}`;
  const roots = v.fromStart
    ? ''
    : ' (checkpoint roots not recomputed: the export does not start at the beginning of the log)';
  const page = v.lastHead.more
    ? `; the export is a page: the log goes on past position ${v.lastHead.next}, beyond what it holds`
    : '';
  const rotation =
    v.awaitedRotation === null
      ? ''
      : `; the key rotation on line ${v.awaitedRotation} awaits a checkpoint signed by both keys: its new key is not trusted yet`;
  return `${held}; ${upTo}${roots}${page}${rotation}${fresh === null ? '' : `; ${fresh}`}`;
}
