import { PasskeysCard } from './passkeys';
import type { Side } from './passkeys-api';
import { TotpCard } from './totp';

export interface SecondFactorsProps {
  side: Side;
  onDone: (message: string) => void;
  /** The service requires a second factor this account lacks (REQUIRE_SECOND_FACTOR). */
  required?: boolean;
}

/** The account screen's second factors: the authenticator app, then the passkeys. */
export function SecondFactors({ side, onDone, required }: SecondFactorsProps) {
  return (
    <>
      <TotpCard side={side} onDone={onDone} required={required} />
      <PasskeysCard side={side} onDone={onDone} />
    </>
  );
}
