import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { linkToken } from '../developer/password-reset';
import { PasswordField } from '../ui/account-fields';
import { Link } from '../ui/link';
import { Done, RefusalNotice } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';
import { differs } from './repeated-password';

/** Reached from the mailed invitation: the new administrator chooses their password, once. */
export function AcceptInvitation() {
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const mismatch = differs(password, confirmation, 'confirmation');
    if (mismatch) return setRefusal(mismatch);
    const answer = await call(async () =>
      api.POST('/admin/invitation/accept', { params: { header: await csrf() }, body: { token, password } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setDone(answer.data.username);
  };

  if (done) {
    return (
      <section class="card narrow" aria-labelledby="invitation-title">
        <ScreenHeading id="invitation-title">Password set</ScreenHeading>
        <Done focusKey={1}>The password of {done} is set.</Done>
        <p>
          <Link to="/admin/login">Sign in to the administrator console</Link> as {done}.
        </p>
      </section>
    );
  }
  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="invitation-title" noValidate>
      <ScreenHeading id="invitation-title">Choose your administrator password</ScreenHeading>
      {token ? (
        <p>You were invited to administer the platform. Choose your password: the link works once.</p>
      ) : (
        <p class="notice refusal">This page is opened from the link in the invitation mail.</p>
      )}
      <PasswordField kind="new" value={password} onInput={setPassword} refusal={refusal} />
      <PasswordField
        kind="again"
        name="confirmation"
        label="Password again"
        value={confirmation}
        onInput={setConfirmation}
        refusal={refusal}
      />
      <RefusalNotice refusal={refusal} takeFocus />
      <button type="submit" class="primary">
        Set the password
      </button>
      {refusal?.error.startsWith('invitation_token') && (
        <p class="aside">
          Ask an administrator who manages access to reset your password: they hand you a one-time password.
        </p>
      )}
    </form>
  );
}
