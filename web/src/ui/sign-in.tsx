import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, csrf, forgetCsrfToken, type Refusal } from '../api/client';
import { navigate } from '../router';
import { forgetDrafts } from './draft';
import { PasswordField, UsernameField } from './account-fields';
import { Done, RefusalNotice } from './notice';
import { ScreenHeading } from './screen';
import { SsoSignIn } from '../admin/sso-sign-in';
import { Chunk } from './chunk';
import { PasskeySignIn } from '../admin/passkey-sign-in';

/** Ends the realm's side of the session, or its sign-in awaiting a second factor; the token changes with it. */
async function logOut(realm: 'developer' | 'admin'): Promise<void> {
  if (realm === 'admin')
    await call(async () => api.POST('/admin/logout', { params: { header: await csrf() }, body: {} }));
  else await call(async () => api.POST('/developer/logout', { params: { header: await csrf() }, body: {} }));
  forgetCsrfToken();
}

/** Ends the member's or the administrator's session and forgets the typed drafts, then shows that realm's sign-in. */
export async function signOut(realm: 'developer' | 'admin'): Promise<void> {
  // First, so that even a sign-out the service did not answer leaves no typed reason to the next person.
  forgetDrafts();
  await logOut(realm);
  navigate(`/${realm}/login`);
}

interface SignInProps {
  realm: 'developer' | 'admin';
  notice?: string;
  onSignedIn: () => void;
  /** Over a screen whose session ended: a dialog's heading, not the screen's, which stays beneath. */
  inPlace?: boolean;
  /** Said under the form (register, forgot password): for the password step only, not the second factor's. */
  children?: ComponentChildren;
}

/** Member or administrator sign-in: the same session cookie, a separate identity in it. */
export function SignIn({ realm, notice, onSignedIn, inPlace = false, children }: SignInProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  const [secondFactor, setSecondFactor] = useState(false);
  const [startedOver, setStartedOver] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  // Back from the second factor, whose button is gone: the username field takes focus.
  useEffect(() => {
    if (startedOver && !secondFactor) form.current?.querySelector('input')?.focus();
  }, [startedOver, secondFactor]);

  const submit = async (event: Event) => {
    event.preventDefault();
    // Busy, the button is marked, not disabled: a disabled button drops focus, and a refusal would leave the user nowhere.
    if (busy) return;
    setBusy(true);
    const body = { username, password };
    const answer =
      realm === 'admin'
        ? await call(async () => api.POST('/admin/login', { params: { header: await csrf() }, body }))
        : await call(async () => api.POST('/developer/login', { params: { header: await csrf() }, body }));
    setBusy(false);
    if (!answer.ok) return setRefusal(answer.refusal);
    forgetCsrfToken();
    // The password was right; the session waits for the code before it can do anything.
    if (answer.data.second_factor_required) return setSecondFactor(true);
    onSignedIn();
  };

  // Another account, or a mistyped username: the sign-in awaiting its code is abandoned, and the password step is empty again.
  const startOver = async () => {
    await logOut(realm);
    setUsername('');
    setPassword('');
    setRefusal(null);
    setSecondFactor(false);
    setStartedOver(true);
  };

  // Its own chunk: most sign-ins never reach it, and the first screen's script has a budget.
  if (secondFactor)
    return (
      <Chunk
        load={() => import('./second-factor-step').then((m) => m.SecondFactorStep)}
        what="the second-factor step"
        props={{ realm, onSignedIn, onStartOver: startOver }}
      />
    );

  return (
    <>
      <form onSubmit={submit} class="card narrow" aria-labelledby="sign-in-title" ref={form}>
        {inPlace ? (
          <h2 id="sign-in-title">Your session has ended: sign in again</h2>
        ) : (
          <ScreenHeading id="sign-in-title">
            {realm === 'admin' ? 'Administrator sign-in' : 'Developer sign-in'}
          </ScreenHeading>
        )}
        <Done>{notice}</Done>
        <UsernameField value={username} onInput={setUsername} refusal={refusal} />
        <PasswordField kind="current" value={password} onInput={setPassword} refusal={refusal} />
        <RefusalNotice refusal={refusal} />
        <button type="submit" class="primary" aria-disabled={busy}>
          Sign in
        </button>
        {realm === 'admin' && !inPlace && <PasskeySignIn onSignedIn={onSignedIn} />}
        {realm === 'admin' && !inPlace && <SsoSignIn />}
      </form>
      {children}
    </>
  );
}
