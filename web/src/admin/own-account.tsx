import { Done, useOutcome } from '../ui/notice';
import { PasswordChangeFields, usePasswordChange } from '../ui/password-change';
import { ScreenHeading } from '../ui/screen';
import { SecondFactorsChunk } from '../ui/second-factors-chunk';

/** "Your account", for every administrator: their own password, given the current one, their authenticator app and passkeys. */
export function OwnAccount({ username }: { username: string }) {
  const [outcome, report] = useOutcome();
  const change = usePasswordChange('admin', (message) =>
    report(`${message.charAt(0).toUpperCase()}${message.slice(1)}.`),
  );

  return (
    <>
      <ScreenHeading>Your account</ScreenHeading>
      <p>
        Signed in as <strong>{username}</strong>.
      </p>
      <Done focusKey={outcome.serial || undefined}>{outcome.message}</Done>
      <form onSubmit={change.submit} class="card" aria-labelledby="own-password-title" noValidate>
        <h2 id="own-password-title">Change your password</h2>
        <PasswordChangeFields current="Current password" {...change} />
        <button type="submit" class="primary">
          Change password
        </button>
      </form>
      <SecondFactorsChunk side="admin" onDone={report} />
    </>
  );
}
