import { MemberEvent } from './decider';
import { normaliseUsername } from './fields';
import { Projection } from '../shared/projections/projection';

export interface MemberDocument {
  id: number;
  username: string;
  username_key: string;
  nickname: string | null;
  email: string | null;
  /** The address a mailed link has yet to confirm; absent in documents built before accounts could change. */
  pending_email?: string | null;
  mobile: string | null;
  registered_at: string;
}

/**
 * Members as the dashboard and the administrators see them; the password hash stays in the stream.
 * The account's changes (and later the restore of a replaced address) came with version 1 still
 * current: before them no stream held their events, so a document built without them is the one
 * built with them.
 */
export const membersProjection: Projection<MemberDocument, MemberEvent> = {
  name: 'members',
  version: 1,
  collection: { name: 'members', indexes: ['username_key'] },

  handles: ['MemberRegistered', 'ProfileUpdated', 'EmailChangeRequested', 'EmailChanged', 'EmailRestored'],
  documentIds: (event) => [String(event.data.member_id)],

  evolve(doc, { type, data, metadata }) {
    switch (type) {
      case 'MemberRegistered':
        return {
          id: data.member_id,
          username: data.username,
          username_key: normaliseUsername(data.username),
          nickname: data.nickname,
          email: data.email,
          pending_email: null,
          mobile: data.mobile,
          registered_at: metadata.time,
        };
      case 'ProfileUpdated':
        return doc && { ...doc, nickname: data.nickname, mobile: data.mobile };
      case 'EmailChangeRequested':
        return doc && { ...doc, pending_email: data.email };
      case 'EmailChanged':
      case 'EmailRestored':
        return doc && { ...doc, email: data.email, pending_email: null };
      default:
        return doc;
    }
  },
};
