import { DomainError } from '../domain/decider';
import { lookAlikeKeys, normaliseLabel } from '../domain/labels';
import { claimStream, holder, NameSpace } from '../domain/name-claims';
import { EventStore } from '../../stores/ports';
import { appendDecided, CommandContext, recordedAfter, streamEnd } from './context';
import { retryOnConflict } from './handle';

/** Rounds of read-then-append on one key: after a lost race the next read finds the winner and refuses. */
const ATTEMPTS = 4;

/** What a claim took: the keys' streams and the revision of the claim in each, given back by releaseClaim. */
export interface Claim {
  space: NameSpace;
  name: string;
  claimant: string;
  taken: { stream: string; revision: number }[];
}

type Refuse = (taken: string) => DomainError;

/** The name the claimant stream's first event holds, or null while it is not written. */
async function claimantName(store: EventStore, space: NameSpace, claimant: unknown): Promise<string | null> {
  if (typeof claimant !== 'string') return null;
  const [first] = await store.readStream(claimant, { maxCount: 1 });
  return first ? String(first.data[space.field]) : null;
}

/** The name holding the key's stream now, if any, and where the stream ends. */
async function keyHolder(store: EventStore, space: NameSpace, stream: string, wanted: Wanted, now: Date) {
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  const name = last ? await claimantName(store, space, last.data.claimant) : null;
  return { last, held: holder(space, last, name, { claimant: wanted.claimant, now }) };
}

type Wanted = { name: string; claimant: string };

/**
 * Refuses, through `refuse`, a name that reads like one holding a key, appending nothing: run
 * before the costly work of a creation (a password hash, an id), so that a refusal costs none.
 */
export async function assertNameFree(
  store: EventStore,
  space: NameSpace,
  wanted: Wanted,
  ctx: CommandContext,
  refuse: Refuse,
): Promise<void> {
  for (const key of lookAlikeKeys(wanted.name)) {
    const { held } = await keyHolder(store, space, claimStream(space, key), wanted, ctx.now);
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
  wanted: Wanted,
  ctx: CommandContext,
  refuse: Refuse,
): Promise<Claim> {
  const name = normaliseLabel(wanted.name);
  await assertNameFree(store, space, wanted, ctx, refuse);
  const claim: Claim = { space, name, claimant: wanted.claimant, taken: [] };
  try {
    for (const key of lookAlikeKeys(name)) {
      const stream = claimStream(space, key);
      const revision = await retryOnConflict(stream, ATTEMPTS, async () => {
        const { last, held } = await keyHolder(store, space, stream, wanted, ctx.now);
        if (held) throw refuse(held);
        const event = { type: space.claimed, data: { name, claimant: wanted.claimant } };
        await appendDecided(store, stream, [event], recordedAfter(ctx, last), streamEnd(last));
        return last ? last.revision + 1 : 0;
      });
      claim.taken.push({ stream, revision });
    }
    return claim;
  } catch (err) {
    await releaseClaim(store, claim, ctx).catch(() => undefined);
    throw err;
  }
}

/**
 * Gives back the keys of a claim whose name could not be used: each key still ending with this
 * claim, while its claimant is not written (a claimant written by a creation racing this one
 * under the same stream, which won, keeps the key). A key given back wrongly would let a
 * look-alike in; one kept wrongly is freed by `holder` anyway, so any doubt keeps it.
 */
export async function releaseClaim(store: EventStore, claim: Claim, ctx: CommandContext): Promise<void> {
  if ((await claimantName(store, claim.space, claim.claimant)) !== null) return;
  for (const { stream, revision } of claim.taken) {
    const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (last?.revision !== revision) continue;
    const event = { type: claim.space.released, data: { name: claim.name } };
    // A claim appended after the read wins: this one was not the last any more.
    await appendDecided(store, stream, [event], recordedAfter(ctx, last), streamEnd(last)).catch(() => undefined);
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
