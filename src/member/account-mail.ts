import type { Mail, MemberMail } from '../shared/mail';
import { LINK_LIFETIME_MINUTES, RESTORE_LIFETIME_DAYS } from './links';

const SIGNATURE =
  '\n\nIf you did not ask for this, ignore this mail: nothing changes until the link is followed.\n\n-- The API platform';

export function passwordResetMail(username: string, link: string): Mail {
  return {
    subject: 'Reset your API platform password',
    text:
      `Hello ${username},\n\nSomeone (we hope you) asked to reset the password of the developer account "${username}".\n` +
      `Choose a new password here, within ${LINK_LIFETIME_MINUTES} minutes; the link works once:\n\n${link}\n\n` +
      'Setting it signs the account out everywhere.' +
      SIGNATURE,
  };
}

export function emailConfirmationMail(username: string, link: string): Mail {
  return {
    subject: 'Confirm your new e-mail address for the API platform',
    text:
      `Hello ${username},\n\nThe developer account "${username}" asked to use this address from now on.\n` +
      `Confirm it here, within ${LINK_LIFETIME_MINUTES} minutes; until then the account keeps its old address:\n\n${link}` +
      SIGNATURE,
  };
}

/**
 * Told to the member (as GitHub and Google tell of a change made to an account): a password they
 * did not choose works now, so one they did not ask for is a takeover to report at once.
 */
export const administratorResetMail: MemberMail = ({ data }) => ({
  subject: 'An administrator reset your API platform password',
  text:
    `administrator #${String(data.admin_id)} gave your developer account a one-time password, and every session of the account was signed out.\n` +
    'Sign in with the one-time password they handed you, then choose your own on your account page.\n' +
    'If you did not ask for this, tell the platform team at once: someone else may hold that password.',
});

/** To the address an e-mail change replaced: the way back, should the change not be the member's. */
export function emailReplacedMail(username: string, newAddress: string, link: string): Mail {
  return {
    subject: 'The e-mail address of your API platform account changed',
    text:
      `Hello ${username},\n\nThe developer account "${username}" now sends its mail to ${newAddress} instead of this address.\n` +
      `If you did not make this change, restore this address here within ${RESTORE_LIFETIME_DAYS} days; it signs the account out everywhere,\n` +
      `then ask for a password-reset link:\n\n${link}\n\nIf you made the change, ignore this mail.\n\n-- The API platform`,
  };
}
