import { Slice } from '../shared/slice';
import { AuditDeps, auditEndpoints } from './endpoints';

/** The auditors' reading of the log: a credential's history and the export. It keeps no read model of its own. */
export const auditSlice: Slice<AuditDeps> = {
  projections: [],
  endpoints: auditEndpoints,
};
