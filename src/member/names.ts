import { DomainError } from '../shared/domain/decider';
import { fieldError } from '../shared/domain/field-error';
import { NameSpace } from '../shared/domain/name-claims';
import { normaliseUsername } from './fields';

/** Members' usernames, unique as they read (src/shared/domain/name-claims.ts); administrators' are a space of their own. */
export const MEMBER_NAMES: NameSpace = {
  category: 'member_name',
  claimed: 'MemberNameClaimed',
  released: 'MemberNameReleased',
  field: 'username',
};

/**
 * The refusal of a username that is taken, or reads like one that is: the other member's username
 * is not named, as a registrant may learn no more of other members than that the name is too close.
 */
export const usernameTaken =
  (username: string) =>
  (taken: string): DomainError =>
    normaliseUsername(taken) === normaliseUsername(username)
      ? fieldError('username_taken', 'username', `the username "${username}" is already registered: choose another one`)
      : fieldError(
          'username_taken',
          'username',
          `the username "${username}" reads like one already registered (letters that look alike, such as "rn" and "m", "0" and "O", "1" and "l"): choose another one`,
        );
