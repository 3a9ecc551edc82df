import { Position, Scalar } from '../stores/ports';
import { ReadModels } from '../shared/projections/read-models';
import { apiIdsProjection } from './projections/api-ids';
import { apiKeysProjection } from './projections/api-keys';
import { IssuedKeyDocument, issuedKeysProjection } from './projections/issued-keys';
import { AcceptedKey } from './grace-period';
import { credentialsProjection } from './projections/credentials';
import { scopeRequestsProjection } from './projections/scope-requests';
import { ScopeRequestDocument } from './views';

/** The credential slice's reads of its own read models. */
export function credentialReads(reads: ReadModels) {
  return {
    credential: (memberId: number, after?: Position | null) =>
      reads.after(credentialsProjection, String(memberId), after),
    scopeRequest: (memberId: number, scope: string, after?: Position | null) =>
      reads.after(scopeRequestsProjection, `${memberId}:${scope}`, after),
    credentials: (where: Record<string, Scalar>) => reads.allLatest(credentialsProjection, where),
    /** The member who claimed this API id, the current one or an earlier one, as of every event committed before the call. */
    memberOfApiId: async (apiid: string): Promise<number | null> =>
      (await reads.latest(apiIdsProjection, apiid))?.member_id ?? null,
    /** Whose key this digest is, whenever it was issued; null for a key this service never issued. */
    issuedKey: (digest: string): Promise<IssuedKeyDocument | null> => reads.latest(issuedKeysProjection, digest),
    /** The keys the member's credential has now, the current one first; none before a claim. */
    keyRing: async (memberId: number): Promise<AcceptedKey[]> =>
      (await reads.latest(apiKeysProjection, String(memberId)))?.keys ?? [],
    scopeRequests: (where: Record<string, Scalar>): Promise<ScopeRequestDocument[]> =>
      reads.allLatest(scopeRequestsProjection, where),
    /** The usernames of these members, from their credentials as they stand: a member's username never changes. */
    usernames: async (memberIds: number[]): Promise<Map<number, string>> => {
      const ids = [...new Set(memberIds)];
      const docs = await reads.manyNow(credentialsProjection, ids.map(String));
      return new Map(ids.flatMap((id, i) => (docs[i] ? [[id, docs[i].username] as const] : [])));
    },
  };
}
