import { newLink, NewLink } from '../shared/mailed-links';

export { tokenSchema } from '../shared/mailed-links';

/** How long a mailed password-reset or confirmation link is good for. */
export const LINK_LIFETIME_MINUTES = 30;

/** A member's link: the member's id in its token. */
export const newMemberLink = (memberId: number, now: Date): NewLink => newLink(memberId, now, LINK_LIFETIME_MINUTES);

/** How long the link mailed to a replaced address can put it back: long enough to notice a takeover after a holiday's week. */
export const RESTORE_LIFETIME_DAYS = 7;

/** A member's link to restore a replaced address. */
export const newRestoreLink = (memberId: number, now: Date): NewLink =>
  newLink(memberId, now, RESTORE_LIFETIME_DAYS * 24 * 60);
