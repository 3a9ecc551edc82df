import { Position, Scalar } from '../stores/ports';
import { ReadModels } from '../shared/projections/read-models';
import { credentialsProjection } from './projections/credentials';
import { scopeRequestsProjection } from './projections/scope-requests';
import { ScopeRequestDocument } from './views';

/** The credential slice's reads of its own read models. */
export function credentialReads(reads: ReadModels) {
  return {
    credential: (memberId: number, after?: Position | null) => reads.after(credentialsProjection, String(memberId), after),
    scopeRequest: (memberId: number, scope: string, after?: Position | null) =>
      reads.after(scopeRequestsProjection, `${memberId}:${scope}`, after),
    credentials: (where: Record<string, Scalar>) => reads.allLatest(credentialsProjection, where),
    scopeRequests: (where: Record<string, Scalar>): Promise<ScopeRequestDocument[]> => reads.allLatest(scopeRequestsProjection, where),
  };
}
