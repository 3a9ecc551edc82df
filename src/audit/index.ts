import { Slice } from '../shared/slice';
import { AuditDeps, auditEndpoints } from './endpoints';
import { proofEndpoints } from './proof/endpoints';

/**
 * The auditors' reading of the log: a credential's history, the export, and the proof that the
 * log is whole (signed checkpoints, inclusion proofs). It keeps no read model of its own.
 */
export const auditSlice: Slice<AuditDeps> = {
  projections: [],
  endpoints: (deps) => [...auditEndpoints(deps), ...proofEndpoints(deps)],
};
