import { DomainError } from '../domain/decider';
import { lookAlikeKeys, normaliseLabel } from '../domain/labels';
import { claimStream, holder, NameSpace } from '../domain/name-claims';
import { EventStore } from '../../stores/ports';
import { appendDecided, CommandContext, recordedAfter, streamEnd } from './context';
import { retryOnConflict } from './handle';

/** Rounds of read-then-append on one key: after a lost race the next read finds the winner and refuses. */
const ATTEMPTS = 4;

/** What a claim took: the keys' streams, given back by releaseClaim. */
export interface Claim {
  space: NameSpace;
  name: string;
  streams: string[];
}

type Refuse = (taken: string) => DomainError;

/** The name holding the key's stream now, if any, and where the stream ends. */
async function keyHolder(store: EventStore, space: NameSpace, stream: string, now: Date) {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  return { last, held: last ? holder(space, last, await written(store, last.data.claimant), now) : null };
}

/**
 * Refuses, through `refuse`, a name that reads like one holding a key, appending nothing: run
 * before the costly work of a creation (a password hash, an id), so that a refusal costs none.
 */
export async function assertNameFree(
  store: EventStore,
  space: NameSpace,
  name: string,
  ctx: CommandContext,
  refuse: Refuse,
): Promise<void> {
  for (const key of lookAlikeKeys(name)) {
    const { held } = await keyHolder(store, space, claimStream(space, key), ctx.now);
    if (held) throw refuse(held);
  }
}

/**
 * Takes every look-alike key of `name` for `claimant` (a stream not yet written), or throws what
 * `refuse` makes of the name already holding one. Every key is read first, so a refusal appends
 * nothing; each is then appended with the revision it was read at (no_stream for a key never
 * claimed), so the store, not this process, settles a race between names that read alike: the
 * loser reads the winner's claim, gives back the keys it took and is refused.
 */
export async function claimName(
  store: EventStore,
  space: NameSpace,
  wanted: { name: string; claimant: string },
  ctx: CommandContext,
  refuse: Refuse,
): Promise<Claim> {
  const name = normaliseLabel(wanted.name);
  await assertNameFree(store, space, name, ctx, refuse);
  const claim: Claim = { space, name, streams: [] };
  try {
    for (const key of lookAlikeKeys(name)) {
      const stream = claimStream(space, key);
      await retryOnConflict(stream, ATTEMPTS, async () => {
        const { last, held } = await keyHolder(store, space, stream, ctx.now);
        if (held) throw refuse(held);
        const event = { type: space.claimed, data: { name, claimant: wanted.claimant } };
        await appendDecided(store, stream, [event], recordedAfter(ctx, last), streamEnd(last));
      });
      claim.streams.push(stream);
    }
    return claim;
  } catch (err) {
    await releaseClaim(store, claim, ctx).catch(() => undefined);
    throw err;
  }
}

async function written(store: EventStore, claimant: unknown): Promise<boolean> {
  return typeof claimant === 'string' && (await store.readStream(claimant, { maxCount: 1 })).length > 0;
}

/** Gives back the keys of a claim whose name could not be used: appended after whatever each key holds now. */
export async function releaseClaim(store: EventStore, claim: Claim, ctx: CommandContext): Promise<void> {
  for (const stream of claim.streams) {
    await retryOnConflict(stream, ATTEMPTS, async () => {
      const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
      const event = { type: claim.space.released, data: { name: claim.name } };
      await appendDecided(store, stream, [event], recordedAfter(ctx, last), streamEnd(last));
    });
  }
}

/**
 * Runs `create` under a claim of the name: its keys are taken first, and given back when `create`
 * fails, so a refused or failed creation leaves the name free.
 */
export async function underClaim<T>(
  store: EventStore,
  space: NameSpace,
  wanted: { name: string; claimant: string },
  ctx: CommandContext,
  refuse: Refuse,
  create: () => Promise<T>,
): Promise<T> {
  const claim = await claimName(store, space, wanted, ctx, refuse);
  try {
    return await create();
  } catch (err) {
    await releaseClaim(store, claim, ctx).catch(() => undefined);
    throw err;
  }
}
