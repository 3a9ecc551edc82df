import type { AdminIdentity } from '../../shared/http/session';
import { DomainError, fold } from '../../shared/domain/decider';
import { AuthenticationFailed } from '../../shared/commands/errors';
import { loadStream } from '../../shared/commands/handle';
import type { ReadModels } from '../../shared/projections/read-models';
import { EventStore } from '../../stores/ports';
import { adminDecider, adminStream, AdminStreamEvent } from '../admin';
import { disabledAdmins } from '../admins';
import { adminsProjection } from '../projections/admins';
import { challengeDigest, RelyingParty, verifiedAssertion, authenticationResponseSchema } from './ceremony';
import { Account, accountOfHandle, passkeysOf } from './passkeys';
import type { z } from 'zod';

type Answer = z.output<typeof authenticationResponseSchema>;

export const passkeyNotAccepted = () =>
  new AuthenticationFailed(
    'passkey_not_accepted',
    'this passkey is not one of an account here, or its signature is wrong',
  );

/**
 * Which account's passkey signed, and that it did: the user handle names the account (a discoverable
 * credential), its stream holds the public key the signature is checked with. Anything amiss is
 * the same refusal, as a wrong password is, and counted as one.
 */
export async function checkAssertion(
  store: EventStore,
  rp: RelyingParty,
  challenge: string,
  answer: Answer,
  account: Account,
) {
  const passkey = (await passkeysOf(store, account)).passkeys.find((p) => p.credential_id === answer.id);
  if (!passkey) throw passkeyNotAccepted();
  const verified = await verifiedAssertion(rp, challenge, answer, passkey);
  if (!verified) throw passkeyNotAccepted();
  return { passkey_id: passkey.passkey_id, counter: verified.counter, challenge_digest: challengeDigest(challenge) };
}

/** The administrator a discoverable passkey's user handle names, when its answer carries one. */
export function adminOfAnswer(answer: Answer): Account {
  const handle = answer.response.userHandle;
  const account = handle ? accountOfHandle(Buffer.from(handle, 'base64url').toString('utf8'), 'admin') : null;
  if (!account) throw passkeyNotAccepted();
  return account;
}

/** The administrator as its stream has it now, for the session: disabled ones are refused as a password sign-in refuses them. */
export async function adminSigningIn(
  store: EventStore,
  readModels: ReadModels,
  admin_id: number,
): Promise<AdminIdentity> {
  const listed = await readModels.after(adminsProjection, String(admin_id));
  if (!listed) throw passkeyNotAccepted();
  const state = fold(adminDecider, await loadStream<AdminStreamEvent>(store, adminStream(listed.username)));
  if (state.status !== 'created' || state.admin_id !== admin_id) throw passkeyNotAccepted();
  if ((await disabledAdmins(store)).includes(admin_id)) {
    throw new DomainError(
      'admin_disabled',
      'this administrator is disabled: a holder of access.manage can enable it again',
    );
  }
  return { id: admin_id, username: state.username, is_super: state.is_super, role_id: state.role_id };
}
