import { useState } from 'preact/hooks';
import { api, call, csrf, type Refusal } from '../api/client';
import { PasswordField } from '../ui/account-fields';
import { Field } from '../ui/field';
import { bindFields } from '../ui/field-issues';
import { Link } from '../ui/link';
import { useLoad } from '../ui/load';
import { Done, RefusalNotice } from '../ui/notice';
import { ScreenHeading } from '../ui/screen';

const NO_MAIL =
  'This service sends no mail, so a password cannot be reset from here: ask an administrator who manages access to give you a one-time password, then change it on your account page.';

/** "Forgot password?": a link to choose a new one is mailed, when the service sends mail. */
export function ForgotPassword() {
  const [reset] = useLoad(() => call(() => api.GET('/developer/password-reset')), []);
  const [login, setLogin] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [sent, setSent] = useState('');
  const mailConfigured = reset.state !== 'ready' || reset.data.mail_configured;

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/developer/password-reset', { params: { header: await csrf() }, body: { login } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setSent(
      answer.data.mail_configured ? `${answer.message.charAt(0).toUpperCase()}${answer.message.slice(1)}.` : NO_MAIL,
    );
  };

  // Without mail there is nothing to fill in: the way forward is said as a next step, not as an
  // error beside a form that cannot be sent.
  if (!mailConfigured) {
    return (
      <section class="card narrow" aria-labelledby="forgot-title">
        <ScreenHeading id="forgot-title">Forgot your password?</ScreenHeading>
        <p class="notice next-step">{NO_MAIL}</p>
        <p class="aside">
          Remembered it? <Link to="/developer/login">Sign in</Link>.
        </p>
      </section>
    );
  }

  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="forgot-title" noValidate>
      <ScreenHeading id="forgot-title">Forgot your password?</ScreenHeading>
      <p>
        Give your username or the e-mail address of your account: a link to choose a new password is mailed to the
        account's address. It works once, within 30 minutes.
      </p>
      <Done focusKey={sent ? 1 : undefined}>{sent}</Done>
      <Field
        {...bindFields(refusal, setRefusal)('login', login, setLogin)}
        label="Username or e-mail"
        required
        autocomplete="username"
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary">
        Mail me a link
      </button>
      <p class="aside">
        Remembered it? <Link to="/developer/login">Sign in</Link>.
      </p>
    </form>
  );
}

/** The token of the mailed link this screen was opened from. */
export const linkToken = (): string => new URLSearchParams(location.search).get('token') ?? '';

/** Reached from the mailed link: a new password, set once; every session of the account ends. */
export function ResetPassword() {
  const [token] = useState(linkToken);
  const [password, setPassword] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await call(async () =>
      api.POST('/developer/password-reset/confirm', { params: { header: await csrf() }, body: { token, password } }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setDone(answer.data.username);
  };

  if (done) {
    return (
      <section class="card narrow" aria-labelledby="reset-title">
        <ScreenHeading id="reset-title">Password set</ScreenHeading>
        <Done focusKey={1}>The password of {done} is set, and the account was signed out everywhere.</Done>
        <p>
          <Link to="/developer/login">Sign in with the new password</Link>.
        </p>
      </section>
    );
  }
  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="reset-title" noValidate>
      <ScreenHeading id="reset-title">Choose a new password</ScreenHeading>
      {!token && <p class="notice refusal">This page is opened from the link in the mail: ask for a new one.</p>}
      <PasswordField
        kind="new"
        label="New password"
        {...bindFields(refusal, setRefusal)('password', password, setPassword)}
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary">
        Set the password
      </button>
      {refusal && refusal.error.startsWith('reset_token') && (
        <p class="aside">
          <Link to="/developer/forgot">Ask for a new link</Link>.
        </p>
      )}
    </form>
  );
}

type LinkPath = '/developer/account/confirm-email' | '/developer/account/restore-email';

/** A mailed link's one action: a button that sends its token, then what it did, or why it was refused. */
function FollowLink({
  path,
  title,
  action,
  done: say,
}: {
  path: LinkPath;
  title: string;
  action: string;
  done: (answer: { username: string; email: string }) => string;
}) {
  const [token] = useState(linkToken);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [done, setDone] = useState('');

  const follow = async () => {
    const answer = await call(async () => api.POST(path, { params: { header: await csrf() }, body: { token } }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setDone(say(answer.data));
  };

  return (
    <section class="card narrow" aria-labelledby="link-title">
      <ScreenHeading id="link-title">{title}</ScreenHeading>
      <Done focusKey={done ? 1 : undefined}>{done}</Done>
      <RefusalNotice refusal={refusal} takeFocus />
      {!done && (
        <button type="button" class="primary" onClick={() => void follow()}>
          {action}
        </button>
      )}
      <p class="aside">
        <Link to="/developer/account">Your account</Link>
      </p>
    </section>
  );
}

/** Reached from the link mailed to a new address: following it makes the address the account's. */
export const ConfirmEmail = () => (
  <FollowLink
    path="/developer/account/confirm-email"
    title="Confirm your new e-mail address"
    action="Confirm this address"
    done={(answer) => `Confirmed: mail for ${answer.username} now goes to ${answer.email}.`}
  />
);

/** Reached from the notice mailed to a replaced address: following it puts the address back and signs the account out. */
export const RestoreEmail = () => (
  <FollowLink
    path="/developer/account/restore-email"
    title="Restore your e-mail address"
    action="Restore this address and sign out everywhere"
    done={(answer) =>
      `Restored: mail for ${answer.username} goes to ${answer.email} again, and every session was signed out. Now ask for a password-reset link (Forgot password?).`
    }
  />
);
