import type { Logger } from 'pino';
import type { Settings } from '../config';
import type { Stores } from '../stores/ports';
import { Slice } from '../shared/slice';
import { AuditDeps, auditEndpoints } from './endpoints';
import { auditEvents } from './event-definitions';
import { AuditCheckpointer } from './proof/checkpointer';
import { proofEndpoints } from './proof/endpoints';
import { keyFilesOf } from './proof/key-ring';

interface NotifierDeps {
  settings: Pick<
    Settings,
    'AUDIT_CHECKPOINT_SECONDS' | 'AUDIT_SIGNING_KEY_FILE' | 'createAuditSigningKey' | 'AUDIT_LOG_ORIGIN'
  >;
  stores: Stores;
  log: Logger;
}

/**
 * The auditors' reading of the log: a credential's history, its state as of an instant, the
 * export, and the proof that the log is whole (docs/audit.md): the signed checkpoints, its one
 * event, appended where the notifiers run, and the inclusion proofs. It keeps no read model; each
 * other event's wording is its slice's.
 */
export const auditSlice: Slice<AuditDeps, NotifierDeps> = {
  name: 'audit',
  events: auditEvents,
  permissions: { 'audit.read': 'Read the audit trail and export it' },
  projections: [],
  endpoints: (deps) => [...auditEndpoints(deps), ...proofEndpoints(deps)],
  notifiers: ({ settings, stores, log }) => [
    new AuditCheckpointer(
      stores.events,
      stores.documents,
      keyFilesOf(settings),
      settings.AUDIT_CHECKPOINT_SECONDS * 1000,
      log.child({ component: 'audit-checkpoints' }),
    ),
  ],
};
