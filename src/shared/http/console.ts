import { send } from '@koa/send';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Middleware } from 'koa';
import { AppState } from './context';
import { HttpError } from './envelope';

/** Where `npm run build:web` puts the console: web/dist at the package root, from src/shared/http or dist/shared/http alike. */
export const CONSOLE_DIR = resolve(__dirname, '..', '..', '..', 'web', 'dist');

export const CONSOLE_PREFIX = '/ui/';

const YEAR_SECONDS = 31_536_000;

// Scripts, styles and calls from this origin only; no inline script, no framing, no plugins.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The paths the console answers rather than the API: the root's redirect and everything under /ui. */
export function isConsolePath(path: string): boolean {
  return path === '/' || path === '/ui' || path.startsWith(CONSOLE_PREFIX);
}

/**
 * The web console, one more client of /api/v1: its hashed assets are cached for good (a new build
 * has new names), index.html never (it names the current assets), and every other path under /ui/
 * is a deep link answered with index.html, where the console's own router takes over.
 */
export function webConsole(root: string = CONSOLE_DIR): Middleware<AppState> {
  return async (ctx, next) => {
    const reading = ctx.method === 'GET' || ctx.method === 'HEAD';
    // Other methods on the root stay the API's: a 404 or 405 in the envelope.
    if (!isConsolePath(ctx.path) || (ctx.path === '/' && !reading)) return next();
    if (ctx.path === '/') return ctx.redirect(CONSOLE_PREFIX);
    if (!reading)
      throw new HttpError(405, 'method_not_allowed', `${ctx.path} allows GET, HEAD only`, undefined, {
        Allow: 'GET, HEAD',
      });
    if (ctx.path === '/ui') return ctx.redirect(CONSOLE_PREFIX);
    setConsoleHeaders(ctx);
    await serveConsoleFile(ctx, ctx.path.slice(CONSOLE_PREFIX.length), root);
  };
}

type Context = Parameters<Middleware<AppState>>[0];

function setConsoleHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'same-origin');
  // The build keeps a brotli and a gzip copy of each file (web/scripts/precompress.mjs): which one
  // is sent depends on Accept-Encoding, so a shared cache must key on it.
  ctx.vary('Accept-Encoding');
}

/** A hashed asset, another file of the build, or index.html for a deep link. */
async function serveConsoleFile(ctx: Context, file: string, root: string): Promise<void> {
  if (file.startsWith('assets/')) {
    const sent = await sendFile(ctx, file, root);
    if (!sent) throw new HttpError(404, 'not_found', `${ctx.path} is not part of this build of the console`);
    ctx.set('Cache-Control', `max-age=${YEAR_SECONDS}, immutable`);
    return;
  }
  // The build's other files (favicon.svg) keep their names: revalidated, not cached for good.
  if (file && file !== 'index.html' && (await sendFile(ctx, file, root))) {
    ctx.set('Cache-Control', 'no-cache');
    return;
  }
  await sendIndex(ctx, root);
}

async function sendIndex(ctx: Context, root: string): Promise<void> {
  if (!existsSync(join(root, 'index.html'))) {
    throw new HttpError(
      503,
      'console_not_built',
      'the web console is not built: run npm run build:web (npm install does it)',
    );
  }
  await send(ctx, 'index.html', { root, index: false, ...PRECOMPRESSED });
  ctx.set('Cache-Control', 'no-cache');
}

const PRECOMPRESSED = { brotli: true, gzip: true } as const;

/** One file of the build, in the encoding the client accepts; null when the build has no such file. */
async function sendFile(ctx: Context, file: string, root: string): Promise<string | null> {
  // The compressed copies are how a file travels, not files of their own.
  if (/\.(br|gz)$/.test(file)) return null;
  return (await send(ctx, file, { root, index: false, ...PRECOMPRESSED }).catch(() => null)) ?? null;
}
