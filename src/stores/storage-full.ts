/**
 * Whether a store failed for want of space: SQLite's SQLITE_FULL (the disk, or the file's page
 * limit), MongoDB's OutOfDiskSpace (14031). Told apart from a bug, so that the client hears that
 * the service cannot write for now and the operator reads why, not a 500 and a stack trace.
 */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 14031;
}
