import { setTimeout as sleep } from 'node:timers/promises';
import { Command, InvalidArgumentError } from 'commander';
import { openDeadLetters, recordDeadLetter } from '../projections/dead-letters';
import { Projection } from '../projections/projection';
import { rebuildAside } from '../projections/rebuild';
import { offerRebuild, rebuildOffers } from '../projections/swap';
import { DocumentStore, Stores } from '../../stores/ports';
import { progressBar } from './progress';
import { withStores } from './run';

export const DEFAULT_WAIT_SECONDS = 10;
const SWAP_POLL_MS = 200;

export interface HandOverOptions {
  /** How long to wait for a running projection runner to swap the rebuilds in. */
  waitSeconds: number;
  /** Discard rebuilds still waiting to be swapped in instead of refusing. */
  replace: boolean;
}

/** `platform projections`: the lifecycle of the read models the composition gives (src/cli.ts). */
export function projectionsCommand(all: Projection[]): Command {
  const projections = new Command('projections').description('the read models: rebuild them from the event log');
  projections
    .command('rebuild')
    .description(
      'rebuild one read model, or all, beside the live ones; the running API or projector then swaps them in',
    )
    .argument('[name]', `one of ${all.map((p) => p.name).join(', ')}`, (name) => parseProjection(all, name))
    .option(
      '--wait <seconds>',
      'how long to wait for the projection runner to swap the rebuild in',
      parseSeconds,
      DEFAULT_WAIT_SECONDS,
    )
    .option('--replace', 'discard a rebuild still waiting to be swapped in (only while no API or projector runs)')
    .action((projection: Projection | undefined, options: { wait: number; replace?: true }) =>
      withStores((stores) =>
        rebuildAndHandOver(stores, projection ? [projection] : all, {
          waitSeconds: options.wait,
          replace: options.replace === true,
        }),
      ),
    );
  return projections;
}

/**
 * Builds the read models aside from the whole log, with a progress bar, and offers them to the
 * projection runner, the one writer of the live read models, which swaps them in (see
 * docs/projections.md). Throws, after handing over the others, when a read model meets an event
 * its projection cannot apply: that one stays as it is and gets a dead letter.
 */
export async function rebuildAndHandOver(
  stores: Stores,
  projections: Projection[],
  options: HandOverOptions,
): Promise<void> {
  const { events, documents } = stores;
  const out = process.stdout;
  await refuseWaiting(documents, projections, options.replace);
  const names = projections.map((p) => p.name).join(', ');
  const progress = progressBar(out, `rebuilding ${names}`);
  const started = performance.now();
  const built = await rebuildAside(events, documents, projections, (p) => progress.update(p));
  progress.finish();
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(built.events / Math.max(seconds, 0.001));
  // Two significant digits under a second: a short log's rebuild is not '0.0 s' at 1,370 events/s.
  const took = seconds < 1 ? seconds.toPrecision(2) : seconds.toFixed(1);
  out.write(
    `Rebuilt ${names} from ${built.events} events in ${took} s (${rate} events/s), up to position ${built.position || 'START'}.\n`,
  );

  for (const poison of built.poisoned) await recordDeadLetter(documents, poison);
  const rebuilt = projections.filter((p) => !built.poisoned.some((poison) => poison.projection === p.name));
  const offeredAt = new Date();
  for (const projection of rebuilt) await offerRebuild(documents, projection, built.position, offeredAt);
  const waiting = await waitForSwaps(documents, rebuilt, options.waitSeconds);
  const refused = await deadLettersSince(documents, rebuilt, offeredAt);
  const swapped = rebuilt.map((p) => p.name).filter((name) => !waiting.has(name) && !refused.has(name));
  if (swapped.length > 0) out.write(`Swapped in by the running projection runner: ${swapped.join(', ')}.\n`);
  if (waiting.size > 0) {
    out.write(
      `Waiting to be swapped in: ${[...waiting].join(', ')}; the API (PROJECTIONS=inline) or \`platform project\` does it as soon as it runs.\n`,
    );
  }
  const failures = [...built.poisoned.map((p) => p.message), ...refused.values()];
  if (failures.length > 0) {
    throw new Error(
      `${failures.join('; ')}. Recorded as dead letters (GET /health); the live read models concerned are unchanged`,
    );
  }
}

async function refuseWaiting(documents: DocumentStore, projections: Projection[], replace: boolean): Promise<void> {
  const waiting = (await rebuildOffers(documents)).filter((o) => projections.some((p) => p.name === o.projection));
  if (waiting.length === 0 || replace) return;
  const list = waiting.map((o) => `${o.projection} (built at ${o.built_at})`).join(', ');
  throw new Error(
    `the rebuild of ${list} is still waiting to be swapped in. If the API or \`platform project\` runs, it swaps it in ` +
      'within seconds (another rebuild may have just offered it): try again then. If neither runs, start one, or pass ' +
      '--replace to discard the waiting rebuild',
  );
}

/** The names still offered when the wait ends. */
async function waitForSwaps(
  documents: DocumentStore,
  projections: Projection[],
  waitSeconds: number,
): Promise<Set<string>> {
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    const offered = new Set((await rebuildOffers(documents)).map((o) => o.projection));
    const waiting = new Set(projections.map((p) => p.name).filter((name) => offered.has(name)));
    if (waiting.size === 0 || Date.now() >= deadline) return waiting;
    await sleep(SWAP_POLL_MS);
  }
}

/** The runner's catch-up met an event it cannot apply: it withdrew the offer and recorded why. */
async function deadLettersSince(
  documents: DocumentStore,
  projections: Projection[],
  since: Date,
): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  for (const letter of await openDeadLetters(documents)) {
    if (letter.time >= since.toISOString() && projections.some((p) => p.name === letter.projection)) {
      refused.set(
        letter.projection,
        `projection ${letter.projection} cannot apply ${letter.event_type} at position ${letter.position}: ${letter.error}`,
      );
    }
  }
  return refused;
}

function parseProjection(all: Projection[], name: string): Projection {
  const projection = all.find((p) => p.name === name);
  if (!projection)
    throw new InvalidArgumentError(
      `no read model is called ${name}; choose one of ${all.map((p) => p.name).join(', ')}.`,
    );
  return projection;
}

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(seconds))
    throw new InvalidArgumentError('give a whole number of seconds.');
  return seconds;
}
