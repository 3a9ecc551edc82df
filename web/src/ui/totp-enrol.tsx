import { useEffect, useRef, useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import type { Refusal } from '../api/client';
import { CodeField } from './code-field';
import { RefusalNotice } from './notice';
import { SecretOnce } from './secret-once';
import { confirmTotp } from './totp-api';
import type { Side } from './passkeys-api';

const RECOVERY_WORDING = {
  title: 'Your recovery codes',
  warning:
    'These 10 recovery codes are shown once, now: store them somewhere safe (a password manager, a printout). ' +
    'Each signs you in once if your phone is lost.',
  label: 'Recovery codes',
  testId: 'recovery-codes',
  copy: 'Copy the recovery codes',
  stored: 'I have stored the recovery codes somewhere safe',
  done: 'Done: hide the recovery codes',
  leave: 'The recovery codes are not shown again. Leave without storing them?',
};

interface EnrolmentProps {
  side: Side;
  secret: string;
  otpauthUri: string;
  onConfirmed: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/**
 * The seed begun: its QR code for the app to scan, the seed as text for an app that cannot scan,
 * and the app's first code, which turns the factor on.
 */
export function TotpEnrolment({ side, secret, otpauthUri, onConfirmed, onCancel }: EnrolmentProps) {
  const [code, setCode] = useState('');
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [busy, setBusy] = useState(false);
  // The SVG is made here from the service's own URI, never from anything typed.
  const qr = renderSVG(otpauthUri, { border: 2 });
  // The button that began it is gone: what to do next takes focus, read before the QR code.
  const steps = useRef<HTMLParagraphElement>(null);
  useEffect(() => steps.current?.focus(), []);

  const confirm = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const answer = await confirmTotp(side, code.trim());
    setBusy(false);
    if (!answer.ok) return setRefusal(answer.refusal);
    onConfirmed(answer.data.recovery_codes);
  };

  return (
    <form onSubmit={confirm} noValidate aria-label="Confirm the authenticator app">
      <p ref={steps} tabIndex={-1}>
        Scan this QR code with your authenticator app (or type the key below), then type the code it shows.
      </p>
      <div
        class="totp-qr"
        role="img"
        aria-label="QR code for your authenticator app"
        dangerouslySetInnerHTML={{ __html: qr }}
      />
      <p>
        Key to type by hand: <code data-testid="totp-secret">{secret}</code>
      </p>
      <CodeField
        id="totp-confirm-code"
        label="Code from the app"
        hint="6 digits"
        value={code}
        onInput={setCode}
        refusal={refusal}
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="primary" aria-disabled={busy}>
        Turn on
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** The 10 recovery codes, once, one a line: copied or stored before the card goes on. */
export function RecoveryCodesOnce({ codes, onStored }: { codes: string[]; onStored: () => void }) {
  return (
    <div class="recovery-codes">
      <SecretOnce secret={codes.join('\n')} wording={RECOVERY_WORDING} onStored={onStored} />
    </div>
  );
}
