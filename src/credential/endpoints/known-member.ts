import { memberReads } from '../../member/reads';
import { ReadModels } from '../../shared/projections/read-models';
import { HttpError } from '../../shared/http/envelope';
import { Refusal } from '../../shared/http/endpoints';

export const unknownMember: Refusal = { status: 404, when: 'there is no member with this id (member_not_found)' };

/**
 * A decision about a member who does not exist is a wrong id, not a credential to apply for first:
 * the administrator is told so before the credential's decider is asked.
 */
export async function requireKnownMember(readModels: ReadModels, memberId: number): Promise<void> {
  if (await memberReads(readModels).member(memberId)) return;
  throw new HttpError(404, 'member_not_found', `there is no member ${memberId}: check the id in the list of applications`);
}
