import { MemberEvent } from './decider';
import { normaliseUsername } from './fields';
import { Projection } from '../shared/projections/projection';

export interface MemberDocument {
  id: number;
  username: string;
  username_key: string;
  nickname: string | null;
  email: string | null;
  mobile: string | null;
  registered_at: string;
}

/** Members as the dashboard and the administrators see them; the password hash stays in the stream. */
export const membersProjection: Projection<MemberDocument, MemberEvent> = {
  name: 'members',
  version: 1,
  collection: { name: 'members', indexes: ['username_key'] },

  handles: ['MemberRegistered'],
  documentIds: (event) => [String(event.data.member_id)],

  evolve(_doc, { data: member, metadata }) {
    return {
      id: member.member_id,
      username: member.username,
      username_key: normaliseUsername(member.username),
      nickname: member.nickname,
      email: member.email,
      mobile: member.mobile,
      registered_at: metadata.time,
    };
  },
};
