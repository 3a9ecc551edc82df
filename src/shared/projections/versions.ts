import { CollectionSpec, DocumentStore, START } from '../../stores/ports';
import { Projection } from './projection';
import { stamp } from './stamp';

/** The version of `evolve` each read model was built with, one document per projection. */
export const PROJECTION_VERSIONS: CollectionSpec = { name: 'projection_versions', indexes: [] };

export interface VersionDocument {
  projection: string;
  version: number;
  recorded_at: string;
}

export interface VersionCheck {
  /** Built with another version, or built before versions were recorded: to be rebuilt. */
  outdated: Projection[];
  /** Never built (no version, nothing applied): recording the code's version is all they need. */
  unrecorded: Projection[];
}

export async function checkVersions(documents: DocumentStore, projections: Projection[]): Promise<VersionCheck> {
  const stored = new Map(
    (await documents.find<VersionDocument>(PROJECTION_VERSIONS.name, {})).map(({ doc }) => [
      doc.projection,
      doc.version,
    ]),
  );
  const check: VersionCheck = { outdated: [], unrecorded: [] };
  for (const projection of projections) {
    const version = stored.get(projection.name);
    if (version === projection.version) continue;
    if (version === undefined && (await documents.checkpoint(projection.name)) === START)
      check.unrecorded.push(projection);
    else check.outdated.push(projection);
  }
  return check;
}

export async function recordVersion(documents: DocumentStore, projection: Projection, now = new Date()): Promise<void> {
  const doc: VersionDocument = {
    projection: projection.name,
    version: projection.version,
    recorded_at: now.toISOString(),
  };
  await documents.write([
    { collection: PROJECTION_VERSIONS.name, id: projection.name, doc: { ...doc }, position: stamp(now) },
  ]);
}

/**
 * The names of the outdated read models, read from the store at most once per `ttlMs`, so that a
 * guard on every administrator request costs a lookup in memory, and an upgrade done by another
 * process shows within `ttlMs` without a restart.
 */
export function outdatedReadModels(
  documents: DocumentStore,
  projections: Projection[],
  ttlMs: number,
): () => Promise<string[]> {
  let cached: { at: number; names: Promise<string[]> } | null = null;
  return () => {
    if (!cached || Date.now() - cached.at >= ttlMs) {
      const names = checkVersions(documents, projections).then(({ outdated }) => outdated.map((p) => p.name));
      // A failed read is not cached: the next request asks the store again.
      names.catch(() => (cached = null));
      cached = { at: Date.now(), names };
    }
    return cached.names;
  };
}
