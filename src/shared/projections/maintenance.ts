import type { Logger } from 'pino';
import { DocumentStore, EventStore, Position } from '../../stores/ports';
import { PoisonEvent, recordDeadLetter } from './dead-letters';
import { Projection } from './projection';
import { asideOf, rebuildAside } from './rebuild';
import type { Follower } from './follower';
import { RebuildOffer, rebuildOffers, swapIn, withdrawOffer } from './swap';
import { checkVersions, recordVersion } from './versions';

/** What maintenance needs of the runner that follows the log: it is the one writer of the live read models. */
export interface FollowingRunner {
  follower(name: string): Follower | undefined;
  /** The last event every projection has applied and stored. */
  position(): Position;
  lostTheLog(): boolean;
  /** Stores what is applied in memory, so that a swap starts from stored read models. */
  flush(): Promise<void>;
  restartAt(projection: Projection, position: Position): void;
}

/**
 * Read-model maintenance, apart from following the log: the upgrade of outdated read models at
 * start, and the adoption of rebuilds that `platform projections rebuild` offers, each swapped in
 * where the live one stood.
 */
export class ReadModelMaintenance {
  private ignoredOffers = new Set<string>();

  constructor(
    private readonly events: EventStore,
    private readonly documents: DocumentStore,
    private readonly log: Logger,
    private readonly runner: FollowingRunner,
  ) {}

  /** Records the code's version of new read models, and rebuilds outdated ones unless told not to (AUTO_UPGRADE). */
  async upgrade(projections: Projection[], rebuildOutdated: boolean): Promise<void> {
    const { outdated, unrecorded } = await checkVersions(this.documents, projections);
    for (const projection of unrecorded) await recordVersion(this.documents, projection);
    if (outdated.length === 0) return;
    const names = outdated.map((p) => p.name);
    if (!rebuildOutdated) {
      this.log.warn(
        { projections: names },
        'read models are outdated; administrator endpoints answer 503 until `platform upgrade` rebuilds them',
      );
      return;
    }
    this.log.info({ projections: names }, 'rebuilding outdated read models');
    const started = performance.now();
    const built = await rebuildAside(this.events, this.documents, outdated);
    for (const poison of built.poisoned) await this.couldNotRebuild(poison);
    for (const projection of outdated) {
      if (!built.poisoned.some((p) => p.projection === projection.name)) await this.swap(projection, built.position);
    }
    const seconds = (performance.now() - started) / 1000;
    this.log.info(
      { projections: names, events: built.events, seconds: Number(seconds.toFixed(1)) },
      'rebuilt outdated read models',
    );
  }

  /** Swaps in what `platform projections rebuild` built aside, for the projections this runner runs. */
  async adoptRebuilds(): Promise<void> {
    // A runner that lost the log has nothing sound to catch a rebuild up with.
    if (this.runner.lostTheLog()) return;
    for (const offer of await rebuildOffers(this.documents)) {
      const follower = this.runner.follower(offer.projection);
      if (!follower) continue;
      if (offer.version !== follower.projection.version) {
        const key = `${offer.projection}@${offer.built_at}`;
        if (!this.ignoredOffers.has(key)) {
          this.ignoredOffers.add(key);
          this.log.warn(
            { projection: offer.projection, offered: offer.version, running: follower.projection.version },
            'ignoring a rebuild made by another version of the service',
          );
        }
        continue;
      }
      try {
        const position = await this.swap(follower.projection, offer.position, offer);
        this.log.info({ projection: offer.projection, position }, 'swapped in a rebuilt read model');
      } catch (err) {
        if (!(err instanceof PoisonEvent)) throw err;
        await this.couldNotRebuild(err);
        await this.documents.dropCollection(asideOf(follower.projection).name);
      }
      await withdrawOffer(this.documents, offer.projection);
    }
  }

  private async swap(projection: Projection, built: Position, offer?: RebuildOffer): Promise<Position> {
    const follower = this.runner.follower(projection.name)!;
    await this.runner.flush();
    const reached = follower.checkpoint > this.runner.position() ? follower.checkpoint : this.runner.position();
    const position = await swapIn(this.events, this.documents, projection, built, reached, offer);
    this.runner.restartAt(projection, position);
    return position;
  }

  /** The live read model stays as it is; the dead letter tells the operator why it was not rebuilt. */
  private async couldNotRebuild(poison: PoisonEvent): Promise<void> {
    const letter = await recordDeadLetter(this.documents, poison);
    this.log.error(
      {
        projection: poison.projection,
        position: letter.position,
        type: letter.event_type,
        stream: letter.stream,
        error: letter.error,
      },
      'could not rebuild a read model: it meets an event it cannot apply; the live one is left as it was',
    );
  }
}
