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
    async scopeRequests(where: Record<string, Scalar>): Promise<ScopeRequestDocument[]> {
      const found = await reads.allLatest(scopeRequestsProjection, where);
      return found.sort((a, b) => a.requested_at.localeCompare(b.requested_at) || a.member_id - b.member_id);
    },
  };
}
