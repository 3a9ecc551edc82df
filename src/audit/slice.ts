import { Slice } from '../shared/slice';
import { AuditDeps, auditEndpoints } from './endpoints';

/**
 * The auditors' reading of the log: a credential's history, its state as of an instant, and the
 * export. It keeps no read model and no event of its own; each event's wording is its slice's.
 */
export const auditSlice: Slice<AuditDeps> = {
  name: 'audit',
  events: {},
  projections: [],
  endpoints: auditEndpoints,
};
