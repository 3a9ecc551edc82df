import type { Refusal } from '../api/client';
import { PasswordChangeFields, usePasswordChange } from './password-change';
import { ScreenHeading } from './screen';
import { signOut } from './sign-in';

/** Whether a refusal says this session signed in with a one-time password, to be changed first. */
export const mustChoosePassword = (refusal: Refusal): boolean =>
  refusal.status === 403 && refusal.error === 'password_change_required';

/**
 * The only screen of a session signed in with a one-time password (docs/accounts.md): every other
 * call is refused until the member or administrator chooses their own; signing out stays possible.
 */
export function ChoosePassword({ realm, onChanged }: { realm: 'developer' | 'admin'; onChanged: () => void }) {
  const change = usePasswordChange(realm, onChanged);

  return (
    <>
      <ScreenHeading>Choose your own password</ScreenHeading>
      <p>
        You signed in with a one-time password an administrator gave you. Choose your own before anything else: until
        then nothing else can be opened.
      </p>
      <form onSubmit={change.submit} class="card" aria-labelledby="choose-password-title" noValidate>
        <h2 id="choose-password-title">Your new password</h2>
        <PasswordChangeFields current="One-time password" {...change} />
        <button type="submit" class="primary">
          Set my password
        </button>{' '}
        <button type="button" onClick={() => void signOut(realm)}>
          Sign out
        </button>
      </form>
    </>
  );
}
