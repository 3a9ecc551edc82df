import { MemberEvent, MemberProfile } from '../../src/member/decider';

/** Member events, as the tests build their histories and expectations. */
export const memberEvents = {
  registered: (profile: MemberProfile): MemberEvent => ({ type: 'MemberRegistered', data: profile }),
};
