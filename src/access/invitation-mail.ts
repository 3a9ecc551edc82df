import { INVITATION_LIFETIME_HOURS } from './admin';
import type { Mail } from '../shared/mail';

export function invitationMail(username: string, link: string): Mail {
  return {
    subject: 'You are invited to administer the API platform',
    text:
      `Hello ${username},\n\nAn administrator created the administrator account "${username}" for you.\n` +
      `Choose your password here, within ${INVITATION_LIFETIME_HOURS} hours; the link works once:\n\n${link}\n\n` +
      'Then sign in to the administrator console with that username and password.\n\n' +
      'If you did not expect this, ignore this mail: nothing changes until the link is followed.\n\n-- The API platform',
  };
}
