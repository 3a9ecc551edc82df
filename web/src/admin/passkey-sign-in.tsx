import { useState } from 'preact/hooks';
import { forgetCsrfToken, type Refusal } from '../api/client';
import { RefusalNotice } from '../ui/notice';
import { signInWithPasskey } from '../ui/passkeys-api';

/** "Sign in with a passkey" under the administrator's sign-in: no username, the passkey names its administrator. */
export function PasskeySignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const signIn = async () => {
    const answer = await signInWithPasskey();
    if (!answer.ok) return setRefusal(answer.refusal);
    forgetCsrfToken();
    onSignedIn();
  };
  return (
    <div class="passkey-sign-in">
      <RefusalNotice refusal={refusal} />
      <button type="button" onClick={() => void signIn()}>
        Sign in with a passkey
      </button>
    </div>
  );
}
