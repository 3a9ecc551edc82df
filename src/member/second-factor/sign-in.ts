import { z } from 'zod';
import { AppContext } from '../../shared/http/context';
import { beginPendingSignIn, SignInSide } from '../../shared/http/pending-sign-in';
import { AdminIdentity, logIntoSession, MemberIdentity, rememberPosition } from '../../shared/http/session';
import { EventStore } from '../../stores/ports';
import { hasSecondFactor } from './factors';

/** Whether the account holds a passkey, which serves as a second factor too (kept by src/access/passkeys). */
export type PasskeyCheck = (side: SignInSide, account_id: number) => Promise<boolean>;

type IdentityOf<S extends SignInSide> = S extends 'member' ? MemberIdentity : AdminIdentity;

/** What a password sign-in answers beyond the identity: whether a second factor is still to come, or to enrol. */
export const secondFactorStepSchema = {
  second_factor_required: z.boolean().meta({
    description:
      'the password was right and the account has a second factor: this session can do nothing but give it (POST …/login/second-factor)',
  }),
  second_factor_enrolment_required: z.boolean().meta({
    description:
      'REQUIRE_SECOND_FACTOR covers this account, which has none: every call but enrolling one (…/2fa/totp) is refused until it does',
  }),
};

export interface SecondFactorStep {
  second_factor_required: boolean;
  second_factor_enrolment_required: boolean;
}

/**
 * After the right password: an account with a second factor is held pending (the session can
 * only give it), any other is signed in, restricted to enrolling one when the policy covers it.
 */
export async function signInAfterPassword<S extends SignInSide>(
  ctx: AppContext,
  events: EventStore,
  side: S,
  identity: IdentityOf<S>,
  { position, covered, passkey }: { position?: string; covered: boolean; passkey: PasskeyCheck },
): Promise<SecondFactorStep> {
  const account = { side, account_id: identity.id };
  if ((await hasSecondFactor(events, account)) || (await passkey(side, identity.id))) {
    await beginPendingSignIn(ctx, side, identity, position);
    return { second_factor_required: true, second_factor_enrolment_required: false };
  }
  const restricted = covered ? { ...identity, second_factor_enrolment_required: true as const } : identity;
  await logIntoSession(ctx, { [side]: restricted });
  if (position) rememberPosition(ctx, position);
  return { second_factor_required: false, second_factor_enrolment_required: covered };
}
