import { useEffect, useState } from 'preact/hooks';
import { api, call, csrf, type Refusal, type Schemas } from '../api/client';
import { ContactFields, NicknameField, PasswordField } from '../ui/account-fields';
import { fixing } from '../ui/field-issues';
import { useLoad } from '../ui/load';
import { Done, Loading, LoadFailed, RefusalNotice } from '../ui/notice';
import { PasswordChangeFields, usePasswordChange } from '../ui/password-change';
import { SecondFactorsChunk } from '../ui/second-factors-chunk';
import { ScreenHeading } from '../ui/screen';

type Account = Schemas['Account'];

/** Nickname, e-mail and mobile, by the registration's rules; a new address waits for its mailed link. */
function ProfileForm({ account, onSaved }: { account: Account; onSaved: (account: Account, message: string) => void }) {
  const [form, setForm] = useState({
    nickname: account.nickname ?? '',
    email: account.email ?? '',
    mobile: account.mobile ?? '',
    current_password: '',
  });
  // A new address moves where the account's mail (and its reset links) go: the service asks who is asking.
  const newAddress = form.email !== '' && form.email !== (account.email ?? '');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // E-mail and mobile answer one rule (at least one), as at registration: either fixes what was said of the pair.
  const set = (name: keyof typeof form) =>
    fixing(
      (value: string) => setForm((f) => ({ ...f, [name]: value })),
      setRefusal,
      name === 'nickname' ? [name] : ['email', 'mobile'],
    );

  const submit = async (event: Event) => {
    event.preventDefault();
    const { current_password, ...profile } = form;
    const body = newAddress ? { ...profile, current_password } : profile;
    const answer = await call(async () => api.PUT('/developer/account', { params: { header: await csrf() }, body }));
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    onSaved(answer.data, answer.message);
  };

  return (
    <form onSubmit={submit} class="card" aria-labelledby="profile-title" noValidate>
      <h2 id="profile-title">Profile</h2>
      <p>
        Signed in as <strong>{account.username}</strong> (a username does not change).
      </p>
      <NicknameField value={form.nickname} onInput={set('nickname')} refusal={refusal} />
      <ContactFields
        form={form}
        set={set}
        refusal={refusal}
        emailHint="A new address counts once you follow the link mailed to it"
      >
        {account.pending_email && (
          <p class="hint" role="status">
            Waiting for confirmation: <strong>{account.pending_email}</strong>. Follow the link mailed there; until then
            mail goes to {account.email ?? 'no address'}.
          </p>
        )}
      </ContactFields>
      {newAddress && (
        <PasswordField
          kind="current"
          name="current_password"
          id="profile-current-password"
          label="Your current password"
          value={form.current_password}
          onInput={set('current_password')}
          hint="A new address needs it; the old address is mailed a link that puts it back for 7 days"
          refusal={refusal}
        />
      )}
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary">
        Save profile
      </button>
    </form>
  );
}

/** The current password, then the new one; the account's other sessions end, this one stays. */
function PasswordForm({ onChanged }: { onChanged: (message: string) => void }) {
  const change = usePasswordChange(
    'developer',
    (message) => onChanged(`${message.charAt(0).toUpperCase()}${message.slice(1)}.`),
    false,
  );
  return (
    <form onSubmit={change.submit} class="card" aria-labelledby="password-title" noValidate>
      <h2 id="password-title">Change password</h2>
      <PasswordChangeFields current="Current password" {...change} />
      <button type="submit" class="primary">
        Change password
      </button>
    </form>
  );
}

/** Sign out everywhere else: a lost laptop, a shared computer. */
function SignOutElsewhere({ onDone }: { onDone: (message: string) => void }) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const endOthers = async () => {
    const answer = await call(async () =>
      api.POST('/developer/sessions/end-others', { params: { header: await csrf() }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    const ended = answer.data.sessions_ended;
    onDone(
      ended === 0
        ? 'No other session was signed in.'
        : `Signed out everywhere else: ${ended === 1 ? '1 other session' : `${ended} other sessions`} ended.`,
    );
  };
  return (
    <section class="card" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      <p>Signed in on another computer you no longer use? End every session of this account but this one.</p>
      <RefusalNotice refusal={refusal} />
      <button type="button" onClick={() => void endOthers()}>
        Sign out everywhere else
      </button>
    </section>
  );
}

/** Told once an administrator gave the member a one-time password, until the member says they saw it. */
function AdministratorReset({
  account,
  onAcknowledged,
}: {
  account: Account;
  onAcknowledged: (account: Account) => void;
}) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  if (!account.password_reset_by) return null;
  const acknowledge = async () => {
    const answer = await call(async () =>
      api.POST('/developer/account/acknowledge-reset', { params: { header: await csrf() }, body: {} }),
    );
    if (!answer.ok) return setRefusal(answer.refusal);
    onAcknowledged(answer.data);
  };
  return (
    <section class="card notice" role="status" aria-labelledby="reset-notice-title">
      <h2 id="reset-notice-title">An administrator reset your password</h2>
      <p>
        Administrator #{account.password_reset_by.admin_id} gave your account a one-time password, and every session was
        signed out. Choose your own password below. If you did not ask for this, tell the platform team at once.
      </p>
      <RefusalNotice refusal={refusal} />
      <button type="button" onClick={() => void acknowledge()}>
        I have seen this
      </button>
    </section>
  );
}

/** The member's account: profile, password, second factors, sessions. */
export function AccountPage() {
  const [loaded, reload] = useLoad(() => call(() => api.GET('/developer/account')), []);
  const [account, setAccount] = useState<Account | null>(null);
  const [outcome, setOutcome] = useState({ message: '', serial: 0 });
  useEffect(() => {
    if (loaded.state === 'ready') setAccount(loaded.data);
  }, [loaded]);
  const report = (message: string) => setOutcome((o) => ({ message, serial: o.serial + 1 }));

  if (loaded.state === 'failed') return <LoadFailed refusal={loaded.refusal} onRetry={reload} />;
  if (!account) return <Loading what="your account" />;
  return (
    <>
      <ScreenHeading>Your account</ScreenHeading>
      <Done focusKey={outcome.serial || undefined}>{outcome.message}</Done>
      <AdministratorReset account={account} onAcknowledged={setAccount} />
      <ProfileForm
        key={account.email ?? ''}
        account={account}
        onSaved={(saved, message) => {
          setAccount(saved);
          report(message.charAt(0).toUpperCase() + message.slice(1) + '.');
        }}
      />
      <PasswordForm onChanged={report} />
      <SecondFactorsChunk side="developer" onDone={report} />
      <SignOutElsewhere onDone={report} />
    </>
  );
}
