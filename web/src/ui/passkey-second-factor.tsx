import { useEffect, useState } from 'preact/hooks';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { forgetCsrfToken, type Refusal } from '../api/client';
import { RefusalNotice } from './notice';
import { passkeySecondFactorOptions, secondFactorWithPasskey } from './passkey-second-factor-api';
import type { Side } from './passkeys-api';

/**
 * "Use a passkey" under the second-factor step, shown only when the account holds one. The options
 * are asked for as the step opens, so that the click goes straight to the browser's prompt.
 */
export function PasskeySecondFactor({ side, onSignedIn }: { side: Side; onSignedIn: () => void }) {
  const [options, setOptions] = useState<PublicKeyCredentialRequestOptionsJSON | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => {
    void passkeySecondFactorOptions(side).then((answer) => (answer.ok ? setOptions(answer.data) : undefined));
  }, [side]);

  if (!options) return null;
  const use = async () => {
    const answer = await secondFactorWithPasskey(side, options);
    if (!answer.ok) {
      setRefusal(answer.refusal);
      // A challenge serves once: a new one for the next try.
      const again = await passkeySecondFactorOptions(side);
      return again.ok && again.data ? setOptions(again.data) : undefined;
    }
    forgetCsrfToken();
    onSignedIn();
  };
  return (
    <div class="passkey-sign-in">
      <RefusalNotice refusal={refusal} />
      <button type="button" onClick={() => void use()}>
        Use a passkey
      </button>
    </div>
  );
}
