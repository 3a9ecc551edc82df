import type { Refusal } from '../api/client';
import { ChoosePassword, mustChoosePassword } from './choose-password';
import { Chunk } from './chunk';
import { ScreenHeading } from './screen';
import { signOut } from './sign-in';

type Realm = 'developer' | 'admin';

/** Whether a refusal says the service requires a second factor this account lacks (REQUIRE_SECOND_FACTOR). */
export const mustEnrolSecondFactor = (refusal: Refusal): boolean =>
  refusal.status === 403 && refusal.error === 'second_factor_enrolment_required';

/**
 * The only screen of a session the second-factor policy holds (docs/accounts.md): the account
 * screen's authenticator-app card, saying why, until the app is on and its recovery codes stored.
 */
export function EnrolSecondFactor({ realm, onEnrolled }: { realm: Realm; onEnrolled: () => void }) {
  return (
    <>
      <ScreenHeading>Set up a second factor</ScreenHeading>
      <p>Nothing else can be opened until your account has one; signing out stays possible.</p>
      <Chunk
        load={() => import('./totp').then((m) => m.TotpCard)}
        what="the authenticator app's card"
        props={{ side: realm, onDone: () => {}, required: true, onEnrolled }}
      />
      <button type="button" onClick={() => void signOut(realm)}>
        Sign out
      </button>
    </>
  );
}

/**
 * The screen a session restricted by the service stands on, instead of a bare refusal: choosing
 * its own password after a one-time one, or enrolling a second factor the policy requires. `null`
 * for any other refusal.
 */
export function restrictedScreen(realm: Realm, refusal: Refusal, reload: () => void) {
  if (mustChoosePassword(refusal)) return <ChoosePassword realm={realm} onChanged={reload} />;
  if (mustEnrolSecondFactor(refusal)) return <EnrolSecondFactor realm={realm} onEnrolled={reload} />;
  return null;
}
