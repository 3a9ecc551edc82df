import { useEffect, useRef } from 'preact/hooks';
import { SIGNED_IN_AGAIN } from './load';
import { SignIn } from './sign-in';

/**
 * Sign-in over the screen whose session ended, which stays beneath as it was: what was typed, the
 * filter, the open reason box. The screen is inert meanwhile; signing in closes the dialog, the
 * screen's failed reads run again, and the user sends what they were sending.
 */
export function SignInAgain({ realm, onSignedIn }: { realm: 'developer' | 'admin'; onSignedIn: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  // The dialog is all the user can do now: focus goes into it.
  useEffect(() => dialog.current?.querySelector('input')?.focus(), []);
  return (
    <div class="sign-in-again" role="dialog" aria-modal="true" aria-labelledby="sign-in-title" ref={dialog}>
      <SignIn
        realm={realm}
        inPlace
        notice="What you typed on this screen is kept: once you are signed in, send it again."
        onSignedIn={() => {
          onSignedIn();
          dispatchEvent(new Event(SIGNED_IN_AGAIN));
        }}
      />
    </div>
  );
}
