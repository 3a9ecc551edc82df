import { createHash, randomBytes } from 'node:crypto';
import type { SessionMove, SessionStore } from '../../stores/ports';

/** How long sessions live without use, and who may open a session that holds no identity. */
export interface SessionLifetimes {
  idleMs: number;
  /** No longer than idleMs: a session that never signs in is not kept for hours. */
  anonymousMs: number;
  /** Whether the client's address may store one more anonymous session; when not, it is kept nowhere. */
  admitAnonymous(ctx: { ip: string }): Promise<boolean>;
}

interface SaveOptions {
  changed: boolean;
  /** koa-session passes the request's context with every save. */
  ctx?: { ip: string };
}

// Ids this request generated and has not stored yet: only these may create a row. Every other
// save updates a live row or nothing, so a save of a session destroyed meanwhile (logout, login,
// registration regenerate the id) cannot bring it back.
const unsaved = new WeakMap<object, Set<string>>();

// Requests whose cookie named a session the store no longer holds (expired, or ended by a logout):
// a refusal to such a request says the session expired rather than that nobody logged in.
const cameWithGoneSession = new WeakSet<object>();

// Requests whose session ended while they ran (a logout, login or registration elsewhere moved it,
// or it expired): their answer must not set the cookie back to the dead id.
const endedWhileInUse = new WeakSet<object>();

/** Whether the session this request began with ended before the request saved it. */
export function sessionEndedMeanwhile(ctx: object): boolean {
  return endedWhileInUse.has(ctx);
}

// The move a login, registration or logout asked for, while koa-session regenerates the id: it
// destroys the old id (noted here instead), then saves the new one (the move, made then).
interface PendingMove {
  move: Omit<SessionMove, 'ttlMs'>;
  from?: string;
  stored?: Record<string, unknown>;
}
const moving = new WeakMap<object, PendingMove>();

/**
 * Runs koa-session's `regenerate` as a move of this request's session (`SessionStore.regenerate`),
 * decided against the session as it is then; answers the data stored under the new id.
 */
export async function moveSession(
  ctx: object,
  move: PendingMove['move'],
  regenerate: () => Promise<void>,
): Promise<Record<string, unknown>> {
  const pending: PendingMove = { move };
  moving.set(ctx, pending);
  try {
    await regenerate();
  } finally {
    moving.delete(ctx);
  }
  if (!pending.stored) throw new Error('the session was not saved under its new id');
  return pending.stored;
}

/** Whether this request's cookie named a session that is gone. */
export function sessionWasGone(ctx: object): boolean {
  return cameWithGoneSession.has(ctx);
}

/** The id this request generated for a new session, if it did. */
export function newIdOf(ctx: object): string | undefined {
  return [...(unsaved.get(ctx) ?? [])].at(-1);
}

/** A new session id (256 random bits), remembered as this request's to create. */
export function newSessionId(ctx: object): string {
  const id = randomBytes(32).toString('base64url');
  const ids = unsaved.get(ctx) ?? new Set<string>();
  ids.add(id);
  unsaved.set(ctx, ids);
  return id;
}

/** Rows are keyed by a digest of the id: whoever reads the store cannot present its sessions. */
export function recordId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

function signedIn(data: Record<string, unknown>): boolean {
  return data.member !== undefined || data.admin !== undefined;
}

/** koa-session's external store over the session port. */
export function sessionRecords(store: SessionStore, lifetimes: SessionLifetimes) {
  const ttlOf = (data: Record<string, unknown>) => (signedIn(data) ? lifetimes.idleMs : lifetimes.anonymousMs);
  return {
    async get(
      sessionId: string,
      _maxAge?: unknown,
      options?: { ctx?: object },
    ): Promise<Record<string, unknown> | null> {
      const data = await store.get(recordId(sessionId));
      if (!data && options?.ctx) cameWithGoneSession.add(options.ctx);
      // The store keeps the expiry (renewals move only its own): koa-session's copy would be stale.
      if (data) delete data._expire;
      return data;
    },
    async set(
      sessionId: string,
      data: Record<string, unknown>,
      _maxAge: number,
      { changed, ctx }: SaveOptions,
    ): Promise<void> {
      const id = recordId(sessionId);
      const pending = ctx && moving.get(ctx);
      if (ctx && unsaved.get(ctx)?.delete(sessionId)) {
        if (pending?.from !== undefined) {
          // A logout is not a new anonymous session: it is answered whatever the client's quota.
          pending.stored = await store.regenerate(pending.from, id, { ...pending.move, ttlMs: ttlOf });
          return;
        }
        // Over the address's quota, the session is not stored, and its cookie still goes out: its
        // CSRF token is derived from its id (`csrfToken`), so that its holder can still sign in.
        if (!signedIn(data) && !(await lifetimes.admitAnonymous(ctx))) return;
        await store.create(id, data, ttlOf(data));
        return;
      }
      // Used but unchanged: renew without writing back a copy that may be older than the row.
      const live = changed ? await store.update(id, data, ttlOf(data)) : await store.touch(id, ttlOf(data));
      if (!live && ctx) endedWhileInUse.add(ctx);
    },
    destroy: async (sessionId: string, options?: { ctx?: object }) => {
      const pending = options?.ctx && moving.get(options.ctx);
      // A move destroys the old id itself, in the same step as it reads it.
      if (pending) pending.from = recordId(sessionId);
      else await store.destroy(recordId(sessionId));
    },
  };
}
