import type { Mail } from '../shared/mail';
import { LINK_LIFETIME_MINUTES } from './links';

const SIGNATURE = '\n\nIf you did not ask for this, ignore this mail: nothing changes until the link is followed.\n\n-- The API platform';

export function passwordResetMail(username: string, link: string): Mail {
  return {
    subject: 'Reset your API platform password',
    text:
      `Hello ${username},\n\nSomeone (we hope you) asked to reset the password of the developer account "${username}".\n` +
      `Choose a new password here, within ${LINK_LIFETIME_MINUTES} minutes; the link works once:\n\n${link}\n\n` +
      'Setting it signs the account out everywhere.' + SIGNATURE,
  };
}

export function emailConfirmationMail(username: string, link: string): Mail {
  return {
    subject: 'Confirm your new e-mail address for the API platform',
    text:
      `Hello ${username},\n\nThe developer account "${username}" asked to use this address from now on.\n` +
      `Confirm it here, within ${LINK_LIFETIME_MINUTES} minutes; until then the account keeps its old address:\n\n${link}` + SIGNATURE,
  };
}
