import { createHash, randomBytes } from 'node:crypto';
import type { SessionStore } from '../../stores/ports';

/** How long sessions live without use, and who may open a session that holds no identity. */
export interface SessionLifetimes {
  idleMs: number;
  /** No longer than idleMs: a session that never signs in is not kept for hours. */
  anonymousMs: number;
  /** Refuses (throws) when the client may open no more anonymous sessions. */
  admitAnonymous(ctx: { ip: string }): Promise<void>;
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

/** Whether this request's cookie named a session that is gone. */
export function sessionWasGone(ctx: object): boolean {
  return cameWithGoneSession.has(ctx);
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
function recordId(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url');
}

function signedIn(data: Record<string, unknown>): boolean {
  return data.member !== undefined || data.admin !== undefined;
}

/** koa-session's external store over the session port. */
export function sessionRecords(store: SessionStore, lifetimes: SessionLifetimes) {
  const ttlOf = (data: Record<string, unknown>) => (signedIn(data) ? lifetimes.idleMs : lifetimes.anonymousMs);
  return {
    async get(sessionId: string, _maxAge?: unknown, options?: { ctx?: object }): Promise<Record<string, unknown> | null> {
      const data = await store.get(recordId(sessionId));
      if (!data && options?.ctx) cameWithGoneSession.add(options.ctx);
      // The store keeps the expiry (renewals move only its own): koa-session's copy would be stale.
      if (data) delete data._expire;
      return data;
    },
    async set(sessionId: string, data: Record<string, unknown>, _maxAge: number, { changed, ctx }: SaveOptions): Promise<void> {
      const id = recordId(sessionId);
      if (ctx && unsaved.get(ctx)?.delete(sessionId)) {
        if (!signedIn(data)) await lifetimes.admitAnonymous(ctx);
        await store.create(id, data, ttlOf(data));
      } else if (changed) {
        await store.update(id, data, ttlOf(data));
      } else {
        // Used but unchanged: renew without writing back a copy that may be older than the row.
        await store.touch(id, ttlOf(data));
      }
    },
    destroy: (sessionId: string) => store.destroy(recordId(sessionId)),
  };
}
