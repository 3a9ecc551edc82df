import { Command } from 'commander';
import { Projection } from '../projections/projection';
import { rebuildOffers } from '../projections/swap';
import { checkVersions } from '../projections/versions';
import { DEFAULT_WAIT_SECONDS, parseSeconds, rebuildAndHandOver } from './projections';
import { withStores } from './run';

/**
 * `platform upgrade` (docs/projections.md): rebuilds the read models built by an older version of
 * their projection. The projection runner swaps each in and records its version, which lifts the
 * 503 of the administrator endpoints (AUTO_UPGRADE=false) within seconds, without a restart.
 * `projections` are every read model, as the composition gives them (src/cli.ts).
 */
export function upgradeCommand(projections: Projection[]): Command {
  return new Command('upgrade')
    .description(
      'rebuild every read model built by an older projection version; the running API or projector swaps them in',
    )
    .option(
      '--wait <seconds>',
      'how long to wait for the projection runner to swap the rebuilds in',
      parseSeconds,
      DEFAULT_WAIT_SECONDS,
    )
    .action((options: { wait: number }) =>
      withStores(async (stores) => {
        const { outdated } = await checkVersions(stores.documents, projections);
        const offers = await rebuildOffers(stores.documents);
        const waiting = outdated.filter((p) => offers.some((o) => o.projection === p.name && o.version === p.version));
        for (const projection of waiting) {
          process.stdout.write(
            `${projection.name}: already rebuilt for version ${projection.version}, waiting to be swapped in.\n`,
          );
        }
        const toRebuild = outdated.filter((p) => !waiting.includes(p));
        if (toRebuild.length === 0) {
          if (waiting.length === 0) process.stdout.write('Every read model is up to date: nothing to upgrade.\n');
          return;
        }
        await rebuildAndHandOver(stores, toRebuild, { waitSeconds: options.wait, replace: true });
      }),
    );
}
