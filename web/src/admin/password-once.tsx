import type { ComponentChildren } from 'preact';
import { SecretOnce, SecretWording } from '../ui/secret-once';

/** A one-time password to hand over: to whom, and why it was made. */
export interface Handover {
  username: string;
  password: string;
  why: string;
}

/**
 * A one-time password for someone else's account (an administrator's or a member's), shown once
 * with copy and the "I have stored it" gate; `children` say whose account it is.
 */
export function PasswordOnce({
  handover,
  testId = 'one-time-password',
  onStored,
  children,
}: {
  handover: Handover;
  testId?: string;
  onStored: () => void;
  children: ComponentChildren;
}) {
  const wording: SecretWording = {
    title: `One-time password of ${handover.username}`,
    warning: `${handover.why} It is shown only this once, and the service keeps only its hash: hand it over now, through a channel only ${handover.username} reads.`,
    label: 'Password',
    testId,
    copy: 'Copy the password',
    stored: 'I have stored the password somewhere safe',
    done: 'Done: hide the password',
    leave: 'The password is shown only this once. Leave without storing it?',
  };
  return (
    <SecretOnce secret={handover.password} wording={wording} onStored={onStored}>
      {children}
    </SecretOnce>
  );
}
