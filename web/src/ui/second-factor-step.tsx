import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, csrf, forgetCsrfToken, type Refusal } from '../api/client';
import { CodeField } from './code-field';
import { RefusalNotice } from './notice';
import { PasskeySecondFactor } from './passkey-second-factor';

interface SecondFactorStepProps {
  realm: 'developer' | 'admin';
  onSignedIn: () => void;
  /** Back to the password step, for another account. */
  onStartOver: () => void;
}

/**
 * The sign-in's second step, after a right password for an account with a second factor: the
 * authenticator app's code, or one of the recovery codes (`POST …/login/second-factor`), or a
 * passkey when the account holds one.
 */
export function SecondFactorStep({ realm, onSignedIn, onStartOver }: SecondFactorStepProps) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  // It replaces the sign-in form in place: the screen's heading takes focus, as a new screen's does.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const body = recovery ? { recovery_code: code.trim() } : { code: code.trim() };
    const answer =
      realm === 'admin'
        ? await call(async () => api.POST('/admin/login/second-factor', { params: { header: await csrf() }, body }))
        : await call(async () =>
            api.POST('/developer/login/second-factor', { params: { header: await csrf() }, body }),
          );
    setBusy(false);
    if (!answer.ok) return setRefusal(answer.refusal);
    forgetCsrfToken();
    onSignedIn();
  };

  return (
    <form onSubmit={submit} class="card narrow" aria-labelledby="second-factor-title">
      <h1 id="second-factor-title" ref={heading} tabIndex={-1}>
        Second factor
      </h1>
      <p>
        {recovery
          ? 'Type one of the recovery codes you kept when you turned the second factor on. Each works once.'
          : 'Type the 6-digit code your authenticator app shows for this account.'}
      </p>
      <CodeField
        recovery={recovery}
        label={recovery ? 'Recovery code' : 'Code'}
        value={code}
        onInput={setCode}
        refusal={refusal}
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary" aria-disabled={busy}>
        Verify
      </button>
      <button
        type="button"
        onClick={() => {
          setRecovery(!recovery);
          setCode('');
          setRefusal(null);
        }}
      >
        {recovery ? "Use the app's code instead" : 'Use a recovery code instead'}
      </button>
      <PasskeySecondFactor side={realm} onSignedIn={onSignedIn} />
      <button type="button" onClick={onStartOver}>
        Use another account
      </button>
    </form>
  );
}
