import { useEffect, useRef, useState } from 'preact/hooks';
import type { Refusal } from '../api/client';
import { PasswordField } from './account-fields';
import { CodeField } from './code-field';
import { useLoad } from './load';
import { LoadFailed, Loading, RefusalNotice } from './notice';
import type { Side } from './passkeys-api';
import { beginTotp, removeTotp, totpStatus } from './totp-api';
import { RecoveryCodesOnce, TotpEnrolment } from './totp-enrol';

/** Where the card stands: at rest, enrolling with a begun seed, or showing the recovery codes once. */
type Stage =
  { at: 'rest' } | { at: 'enrolling'; secret: string; otpauthUri: string } | { at: 'codes'; codes: string[] };

interface TotpCardProps {
  side: Side;
  onDone: (message: string) => void;
  /** The sign-in was refused for want of a second factor (REQUIRE_SECOND_FACTOR): the card says why, and takes focus. */
  required?: boolean;
  /** Told once the app is on and its recovery codes stored: a restricted session may go on. */
  onEnrolled?: () => void;
}

/**
 * "Authenticator app" on a member's or an administrator's own account screen: whether TOTP is on
 * and how many recovery codes remain; setting it up (QR code, confirmation, the codes once); and
 * turning it off, given the password and a code.
 */
export function TotpCard({ side, onDone, required = false, onEnrolled }: TotpCardProps) {
  const [loaded, reload] = useLoad(() => totpStatus(side), [side]);
  const [stage, setStage] = useState<Stage>({ at: 'rest' });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The button pressed leaves with the stage it belonged to: the card's heading takes focus back.
  const backToRest = useRef(false);
  useEffect(() => {
    if (required || backToRest.current) heading.current?.focus();
    backToRest.current = false;
  }, [required, loaded.state, stage.at]);
  const rest = () => {
    backToRest.current = true;
    setStage({ at: 'rest' });
  };

  const begin = async () => {
    const answer = await beginTotp(side);
    if (!answer.ok) return setRefusal(answer.refusal);
    setRefusal(null);
    setStage({ at: 'enrolling', secret: answer.data.secret, otpauthUri: answer.data.otpauth_uri });
  };

  if (loaded.state === 'failed') return <LoadFailed refusal={loaded.refusal} onRetry={reload} />;
  if (loaded.state === 'loading') return <Loading what="your authenticator app" />;
  const on = loaded.data.totp;
  return (
    <section class="card" id="second-factor" aria-labelledby="totp-title">
      <h2 id="totp-title" ref={heading} tabIndex={-1}>
        Authenticator app
      </h2>
      {required && !on && (
        <p class="notice" role="alert">
          This service requires a second factor for your account: set up an authenticator app to go on.
        </p>
      )}
      <p data-testid="totp-status">
        {statusOf(stage.at === 'codes' ? stage.codes.length : on ? loaded.data.recovery_codes_remaining : null)}
      </p>
      {stage.at === 'enrolling' && (
        <TotpEnrolment
          side={side}
          secret={stage.secret}
          otpauthUri={stage.otpauthUri}
          onCancel={rest}
          onConfirmed={(codes) => {
            setStage({ at: 'codes', codes });
            onDone('Authenticator app turned on.');
          }}
        />
      )}
      {stage.at === 'codes' && (
        <RecoveryCodesOnce
          codes={stage.codes}
          onStored={() => {
            rest();
            reload();
            onEnrolled?.();
          }}
        />
      )}
      {stage.at === 'rest' && (
        <AtRest
          side={side}
          on={on}
          refusal={refusal}
          onBegin={() => void begin()}
          onRemoved={() => {
            reload();
            onDone('Authenticator app turned off.');
          }}
        />
      )}
    </section>
  );
}

/**
 * What the card says of the factor (`remaining` null: off). On as soon as it is confirmed, counting
 * the codes just shown, before the status is read again.
 */
const statusOf = (remaining: number | null) =>
  remaining === null
    ? 'Off: sign-in asks for your password only.'
    : `On: sign-in asks for the app's code. ${remaining} of 10 recovery codes left.`;

interface AtRestProps {
  side: Side;
  on: boolean;
  refusal: Refusal | null;
  onBegin: () => void;
  onRemoved: () => void;
}

/** Off, the way to set it up (and why beginning failed); on, the way to turn it off. */
function AtRest({ side, on, refusal, onBegin, onRemoved }: AtRestProps) {
  if (on) return <TurnOff side={side} onRemoved={onRemoved} />;
  return (
    <>
      <RefusalNotice refusal={refusal} />
      <button type="button" class="primary" onClick={onBegin}>
        Set up an authenticator app
      </button>
    </>
  );
}

/** "Turn off": asked first, then the password and a code or a recovery code, so an open session alone cannot. */
function TurnOff({ side, onRemoved }: { side: Side; onRemoved: () => void }) {
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const proof = recovery ? { recovery_code: code.trim() } : { code: code.trim() };
    const answer = await removeTotp(side, password, proof);
    if (!answer.ok) return setRefusal(answer.refusal);
    onRemoved();
  };

  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        Turn off
      </button>
    );
  return (
    <form onSubmit={submit} noValidate aria-label="Turn off the authenticator app">
      <PasswordField
        kind="current"
        id="totp-off-password"
        label="Your password"
        value={password}
        onInput={setPassword}
        refusal={refusal}
      />
      <CodeField
        recovery={recovery}
        id="totp-off-code"
        label={recovery ? 'A recovery code' : 'Code from the app'}
        value={code}
        onInput={setCode}
        refusal={refusal}
      />
      <RefusalNotice refusal={refusal} />
      <button type="submit" class="danger">
        Turn off the authenticator app
      </button>
      <button type="button" onClick={() => setRecovery(!recovery)}>
        {recovery ? 'Use the app’s code instead' : 'Use a recovery code instead'}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </form>
  );
}
