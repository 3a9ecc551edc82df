import { MemberGroupDefinition, memberGroupDecider } from '../../src/access/member-group';
import { given } from '../support/decider-spec';
import { accessEvents as events } from './events';

describe('member group decider', () => {
  const partners: MemberGroupDefinition = { member_group_id: 2, name: 'Partners', description: 'Paying partners' };
  const define = (changes: Partial<MemberGroupDefinition>) => ({
    type: 'DefineMemberGroup' as const,
    data: { ...partners, ...changes },
  });

  it('defines a new member group', () => {
    given(memberGroupDecider, [])
      .when(define({}))
      .then([events.memberGroupDefined(partners)]);
  });

  it('refuses to define a member group id twice', () => {
    given(memberGroupDecider, [events.memberGroupDefined(partners)])
      .when(define({ name: 'Other' }))
      .thenRefuses('member_group_exists');
  });

  it.each([0, -2, 2.5, Number.NaN])('refuses member group id %p', (member_group_id) => {
    given(memberGroupDecider, []).when(define({ member_group_id })).thenRefuses('invalid_member_group_id');
  });

  it.each([
    ['empty', ''],
    ['blank', ' \t '],
    ['65 characters long', 'n'.repeat(65)],
    ['broken by a line feed', 'evil\nline'],
    ['holding an escape sequence', 'red\u001b[31m'],
  ])('refuses a name that is %s', (_label, name) => {
    given(memberGroupDecider, []).when(define({ name })).thenRefuses('invalid_member_group_name');
  });

  it('refuses a description over 500 characters', () => {
    given(memberGroupDecider, [])
      .when(define({ description: 'd'.repeat(501) }))
      .thenRefuses('invalid_member_group_description');
  });

  it.each(['', 'd'.repeat(500)])('accepts a description of 0 to 500 characters (%#)', (description) => {
    given(memberGroupDecider, [])
      .when(define({ description, name: 'n'.repeat(64) }))
      .then([events.memberGroupDefined({ ...partners, description, name: 'n'.repeat(64) })]);
  });
});
