import { newLink, NewLink } from '../shared/mailed-links';

export { tokenSchema } from '../shared/mailed-links';

/** How long a mailed password-reset or confirmation link is good for. */
export const LINK_LIFETIME_MINUTES = 30;

/** A member's link: the member's id in its token. */
export const newMemberLink = (memberId: number, now: Date): NewLink => newLink(memberId, now, LINK_LIFETIME_MINUTES);
