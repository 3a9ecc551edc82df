import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from '../api/client';
import { hasKey } from '../api/credential-rules';
import { when } from '../ui/load';

export type State = NonNullable<Schemas['CredentialHistory']['state']>;

/** Its expiry as the card words it: expired when its key was refused then. */
function expiryText({ credential, expired }: State): string {
  if (!credential.expires_at) return 'never expires';
  return `${expired ? 'expired' : 'expires'} ${when(credential.expires_at)}`;
}

/** API id, expiry and extension request (those two only while it has a key), reason. */
function details(state: State): string[] {
  const { credential } = state;
  const why = credential.revoke_reason ?? credential.reject_reason;
  const live = hasKey(credential);
  return [
    credential.apiid && `API id ${credential.apiid}`,
    live && expiryText(state),
    // The member's last request for a later expiry, as the member's dashboard shows it.
    live &&
      credential.extension &&
      `extension to ${when(credential.extension.expires_at)} ${credential.extension.status}`,
    why && `reason: ${why}`,
  ].filter((detail): detail is string => Boolean(detail));
}

/**
 * The credential at the instant asked for: status (expired when its key was refused then), API id,
 * expiry and extension request, reason, scopes. It stands above the timeline: asked for from an
 * event far down, it takes focus, which scrolls it into view and reads it out. `at` says which
 * instant: a time typed, or an event.
 */
export function StateAsOf({ at, state, focusKey }: { at: string; state: State; focusKey: number }) {
  const { credential, scopes, expired } = state;
  const card = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focusKey) card.current?.focus();
  }, [focusKey]);
  const said = details(state);
  return (
    <p class="card" data-testid="state-as-of" ref={card} tabIndex={-1}>
      {at}: credential{' '}
      <span class={`status ${expired ? 'expired' : credential.status}`}>
        {expired ? `${credential.status}, expired` : credential.status}
      </span>
      {said.length > 0 && <> ({said.join('; ')})</>}
      {scopes.length > 0 && <>; scopes {scopes.map((s) => `${s.name} ${s.status}`).join(', ')}</>}.
    </p>
  );
}
