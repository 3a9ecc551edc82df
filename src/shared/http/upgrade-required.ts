import { Middleware } from 'koa';
import { AppState } from './context';
import { HttpError } from './envelope';

/**
 * docs/projections.md, "Versions": while a read model is older than the code (AUTO_UPGRADE=false),
 * every administrator endpoint answers 503 until `platform upgrade` has rebuilt it. Checked before the
 * administrator's own guard, so the answer is the same whoever calls.
 */
export function unlessUpgradeRequired(
  outdated: () => Promise<string[]>,
  guard: Middleware<AppState>,
): Middleware<AppState> {
  return async (ctx, next) => {
    const names = await outdated();
    if (names.length > 0) {
      throw new HttpError(
        503,
        'upgrade_required',
        `the read models ${names.join(', ')} are older than this version of the service: run \`platform upgrade\`, ` +
          'or restart with AUTO_UPGRADE=true to rebuild them at start',
      );
    }
    return guard(ctx, next);
  };
}
