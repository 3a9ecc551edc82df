import { PasskeysCard } from './passkeys';
import type { Side } from './passkeys-api';
import { TotpCard } from './totp';

export interface SecondFactorsProps {
  side: Side;
  onDone: (message: string) => void;
}

/** The account screen's second factors: the authenticator app, then the passkeys. */
export function SecondFactors({ side, onDone }: SecondFactorsProps) {
  return (
    <>
      <TotpCard side={side} onDone={onDone} />
      <PasskeysCard side={side} onDone={onDone} />
    </>
  );
}
