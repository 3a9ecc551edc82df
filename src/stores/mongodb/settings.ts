// Apart from the driver, so that reading the settings (src/stores/config.ts) loads no driver code.

/**
 * Time limits on every operation. The driver's timeoutMS (CSOT) is deprecated and ignored by
 * driver 7, so the bounds are the older ones: finding a usable server (long enough to ride out a
 * replica-set election, about 12 s), a socket that stops answering, and a server-side maxTimeMS
 * on each read (document-store.ts).
 */
export const MONGO_TIMEOUTS = { serverSelectionTimeoutMS: 15_000, socketTimeoutMS: 20_000, connectTimeoutMS: 10_000 };

/**
 * A write is acknowledged once it is in the journal of a majority: the driver's default (`w: 1`,
 * journal unspecified) acknowledges a standalone server's write while it is only in memory, so a
 * crash of mongod could bring back a logged-out session, forget a login block or move a
 * checkpoint back. The embedded store commits with fsync for the same reason.
 */
export const MONGO_WRITE_CONCERN = { w: 'majority', journal: true } as const;
