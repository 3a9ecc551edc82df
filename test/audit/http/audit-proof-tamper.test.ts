import { generateKeyPairSync } from 'node:crypto';
import { CHECKPOINT_STREAM } from '../../../src/audit/proof/checkpoint';
import { copy, expectBroken, isRejection, Line, lineOf, provenPlatform } from '../support/proven-platform';

// Each change an export could suffer after it left the API, and the line `platform audit verify` names.

const p = provenPlatform();
const { verifyText, verify } = p;
const HEAD = () => p.exported.length;

describe('the tamper matrix: each change is refused, naming the line', () => {
  const rejectionAt = () => p.exported.findIndex(isRejection);

  it('a rejection whose data is rewritten, the original kept as recorded_data', async () => {
    const lines = copy(p.exported);
    const rejection = lines[rejectionAt()]!;
    rejection.recorded_data = { ...rejection.data };
    rejection.data!.reason = 'no reason at all';
    expectBroken(
      await verify(lines, 'recorded-data'),
      lineOf(lines, rejection),
      /event ScopeRejected #\d+ of credential-\d+ at position \d+ shows its data otherwise than its recorded fields make it/,
    );
  });

  it("a field of the digest changed: the rejection's reason", async () => {
    const lines = copy(p.exported);
    lines[rejectionAt()]!.reason = 'no reason at all';
    expectBroken(await verify(lines, 'reason'), rejectionAt() + 1, /event ScopeRejected .* does not match its digest/);
  });

  it('a summary reworded', async () => {
    const lines = copy(p.exported);
    lines[rejectionAt()]!.summary = 'approved the scope member-groups.read';
    expectBroken(
      await verify(lines, 'summary'),
      rejectionAt() + 1,
      /shows its summary otherwise than its recorded fields make it/,
    );
  });

  it('an id or a position rewritten: the checkpoint over it no longer holds; a username: the signed head', async () => {
    const checkpointOver =
      p.exported.findIndex(
        (l) => l.stream === CHECKPOINT_STREAM && (l.data as { size: number }).size >= rejectionAt() + 1,
      ) + 1;
    const edits: [(l: Line) => void, number, RegExp][] = [
      [
        (l) => (l.id = 'another-id'),
        checkpointOver,
        /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
      ],
      [
        (l) => (l.position = `${String(l.position)}0`),
        checkpointOver,
        /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
      ],
      [
        (l) => ((l.actor as { username: string }).username = 'someone-else'),
        HEAD(),
        /the page's signed head covers \d+ event lines, and they are not the \d+ lines above it/,
      ],
    ];
    for (const [i, [edit, line, what]] of edits.entries()) {
      const lines = copy(p.exported);
      edit(lines[rejectionAt()]!);
      expectBroken(await verify(lines, `covered-${i}`), line, what);
    }
  });

  it('a key named twice in a line', async () => {
    const text = p.exportedText.split('\n');
    text[rejectionAt()] = text[rejectionAt()]!.replace(/^\{/, '{"reason":"no reason at all",');
    expectBroken(await verifyText(text.join('\n'), 'twice'), rejectionAt() + 1, /names the key "reason" twice/);
  });

  it('a field no export line has', async () => {
    const lines = copy(p.exported);
    lines[rejectionAt()]!.approved = true;
    expectBroken(
      await verify(lines, 'unknown-field'),
      rejectionAt() + 1,
      /not an export line: it holds a field no export line has \(approved\)/,
    );
  });

  it('a digest removed, its prev_digest kept', async () => {
    const lines = copy(p.exported);
    delete lines[rejectionAt()]!.digest;
    expectBroken(
      await verify(lines, 'no-digest'),
      rejectionAt() + 1,
      /shows its prev_digest otherwise than its recorded fields make it/,
    );
  });

  it('a blank line, in the middle or at the end', async () => {
    const middle = p.exportedText.split('\n');
    middle.splice(2, 0, '');
    expectBroken(await verifyText(middle.join('\n'), 'blank-middle'), 3, /is blank/);
    expectBroken(await verifyText(`${p.exportedText}\n`, 'blank-end'), HEAD() + 1, /is blank/);
  });

  it('a line that is not JSON, or not an object', async () => {
    const text = p.exportedText.split('\n');
    text[1] = text[1]!.slice(0, -1);
    expectBroken(await verifyText(text.join('\n'), 'not-json'), 2, /is not JSON/);
    text[1] = '[]';
    expectBroken(await verifyText(text.join('\n'), 'array'), 2, /is not a JSON object/);
  });

  it('the rejection taken out: the checkpoint over it no longer holds', async () => {
    const rejection = p.exported.find(isRejection)!;
    expect(
      p.exported.filter(
        (l) => l.stream === rejection.stream && (l.revision as number) > (rejection.revision as number),
      ),
    ).toEqual([]);
    const removed = p.exported.filter((l) => !isRejection(l));
    const at = removed.findIndex(
      (l) => l.stream === CHECKPOINT_STREAM && (l.data as { size: number }).size >= rejectionAt() + 1,
    );
    expectBroken(
      await verify(removed, 'dropped'),
      at + 1,
      /the checkpoint signed \d+ events up to position \d+, and the lines above it differ/,
    );
  });

  it('an event before the rejection in its stream taken out', async () => {
    const rejection = p.exported.find(isRejection)!;
    const removed = p.exported.filter(
      (l) => !(l.stream === rejection.stream && l.revision === (rejection.revision as number) - 1),
    );
    expectBroken(
      await verify(removed, 'gap'),
      lineOf(removed, rejection),
      new RegExp(`follows #${(rejection.revision as number) - 2} of its stream`),
    );
  });

  it('two lines swapped, or one repeated', async () => {
    const swapped = copy(p.exported);
    const at = rejectionAt();
    [swapped[at - 1], swapped[at]] = [swapped[at]!, swapped[at - 1]!];
    const run = await verify(swapped, 'swapped');
    expect(run.stderr).toMatch(/reordered|signed head covers/);
    const repeated = copy(p.exported);
    repeated.splice(at + 1, 0, copy([p.exported[at]!])[0]!);
    expectBroken(await verify(repeated, 'repeated'), at + 2, /follows #\d+ of its stream: .*repeated/);
  });

  it('the tail cut off, the signed head with it, or the last event line alone', async () => {
    expectBroken(await verify(p.exported.slice(0, -3), 'cut'), HEAD() - 3, /ends without its signed head/);
    const lastEventOut = [...p.exported.slice(0, -2), p.exported.at(-1)!];
    expectBroken(await verify(lastEventOut, 'last-out'), HEAD() - 1, /the page's signed head covers/);
  });

  it('a head edited beside its note: the line says what the signed note does not', async () => {
    const lines = copy(p.exported);
    lines.at(-1)!.more = true;
    expectBroken(
      await verify(lines, 'head-edited'),
      HEAD(),
      /the export head shows a more its signed note does not say/,
    );
  });

  it('another key', async () => {
    const other = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expectBroken(
      await verify(p.exported, 'other-key', other),
      p.exported.findIndex((l) => l.stream === CHECKPOINT_STREAM) + 1,
      /does not verify: no signature by a key given/,
    );
  });
});
