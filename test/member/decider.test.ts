import { memberDecider, memberStream, MemberProfile } from '../../src/member/decider';
import { ADMIN_IDS, MEMBER_IDS, nextId } from '../../src/shared/domain/sequences';
import { given } from '../support/decider-spec';
import { memberEvents } from './events';

const profile: MemberProfile = {
  member_id: 1,
  username: 'Alice',
  nickname: null,
  email: 'alice@example.com',
  mobile: null,
  password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
};

describe('member decider', () => {
  it('registers a member whose username is free', () => {
    given(memberDecider, [])
      .when({ type: 'RegisterMember', data: profile })
      .then([memberEvents.registered(profile)]);
  });

  it('refuses a username that is already registered, naming the field as every field refusal does', () => {
    const refused = given(memberDecider, [memberEvents.registered(profile)])
      .when({ type: 'RegisterMember', data: { ...profile, member_id: 2 } })
      .thenRefuses('username_taken');
    expect(refused.problems).toEqual([{ path: 'username', message: refused.message }]);
  });

  it.each([0, -3, 1.5, Number.NaN])('refuses member id %p: ids are positive integers', (member_id) => {
    given(memberDecider, [])
      .when({ type: 'RegisterMember', data: { ...profile, member_id } })
      .thenRefuses('invalid_member_id');
  });

  it('refuses anything but an Argon2id hash, so a clear password can never be stored', () => {
    given(memberDecider, [])
      .when({ type: 'RegisterMember', data: { ...profile, password_hash: 'secret1' } })
      .thenRefuses('invalid_password_hash');
  });

  it('names the stream after the username case-insensitively, so one stream decides uniqueness', () => {
    expect(memberStream('Alice')).toBe(memberStream('aLICE'));
    expect(memberStream('Alice')).not.toBe(memberStream('Alice2'));
  });
});

describe('id sequences', () => {
  it('start at 1', () => {
    expect(nextId(MEMBER_IDS, null)).toEqual({ type: 'MemberIdAllocated', data: { member_id: 1 } });
    expect(nextId(ADMIN_IDS, null)).toEqual({ type: 'AdminIdAllocated', data: { admin_id: 1 } });
  });

  it('follow the last id allocated', () => {
    expect(nextId(MEMBER_IDS, { type: 'MemberIdAllocated', data: { member_id: 41 } }).data.member_id).toBe(42);
  });
});
