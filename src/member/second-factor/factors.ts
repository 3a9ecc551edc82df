import { DomainError, fold } from '../../shared/domain/decider';
import { CommandContext } from '../../shared/commands/context';
import { AuthenticationFailed } from '../../shared/commands/errors';
import { handle, loadStream } from '../../shared/commands/handle';
import { EventStore } from '../../stores/ports';
import { secondFactorDecider, SecondFactorState, secondFactorStream } from './decider';
import { Account, SecondFactorEvent } from './events';
import { newRecoveryCodes, recoveryCodeDigest } from './recovery-codes';
import { SeedSealer } from './sealer';
import { newTotpSecret, otpauthUri, totpStepOf } from './totp';

/** What proves the second factor: a code from the authenticator app, or one of the recovery codes. */
export type SecondFactorProof = { code: string } | { recovery_code: string };

/** The account's second factor as its own stream has it (the log, not a read model). */
export async function secondFactorOf(store: EventStore, account: Pick<Account, 'side' | 'account_id'>) {
  return fold(secondFactorDecider, await loadStream<SecondFactorEvent>(store, secondFactorStream(account)));
}

/** Whether the account signs in with a second factor. */
export const hasSecondFactor = async (store: EventStore, account: Pick<Account, 'side' | 'account_id'>) =>
  (await secondFactorOf(store, account)).enrolled !== null;

const epochOf = (ctx: CommandContext): number => Math.floor(ctx.now.getTime() / 1000);

/** Begins (or begins again) a TOTP enrolment: a new seed, sealed in the log, shown once in clear. */
export async function beginTotp(
  store: EventStore,
  sealer: SeedSealer,
  account: Account,
  issuer: string,
  ctx: CommandContext,
): Promise<{ secret: string; otpauth_uri: string; position: string | null }> {
  const secret = newTotpSecret();
  const stream = secondFactorStream(account);
  const command = { type: 'BeginTotp' as const, account, sealed_secret: sealer.seal(stream, secret) };
  const { position } = await handle(store, stream, secondFactorDecider, command, ctx);
  return { secret, otpauth_uri: otpauthUri(issuer, account.username, secret), position };
}

/** The time step of `code` for `sealed`'s seed, or null when the code is not the seed's now. */
function stepOf(sealer: SeedSealer, account: Account, sealed: string, code: string, ctx: CommandContext) {
  return totpStepOf(sealer.open(secondFactorStream(account), sealed), code, epochOf(ctx));
}

/** Confirms the enrolment with a code from the app: TOTP is on, and the recovery codes are answered once. */
export async function confirmTotp(
  store: EventStore,
  sealer: SeedSealer,
  account: Account,
  code: string,
  ctx: CommandContext,
): Promise<{ recovery_codes: string[]; position: string | null }> {
  const { enrolling } = await secondFactorOf(store, account);
  if (!enrolling)
    throw new DomainError('no_enrolment', 'no enrolment was begun, or it was confirmed: begin one (…/2fa/totp)');
  const step = await stepOf(sealer, account, enrolling, code, ctx);
  if (step === null)
    throw new DomainError('wrong_code', "the code is not your app's current one: check the app and the device's clock");
  const recovery_codes = newRecoveryCodes();
  const recovery_code_digests = recovery_codes.map(recoveryCodeDigest);
  const command = { type: 'ConfirmTotp' as const, account, step, recovery_code_digests };
  const { position } = await handle(store, secondFactorStream(account), secondFactorDecider, command, ctx);
  return { recovery_codes, position };
}

const wrongProof = () =>
  new AuthenticationFailed('invalid_second_factor', 'the code is wrong, or was used already: try the next one');

/** Records the proof's use (the step of a code, a recovery code gone): a second use of either is refused. */
async function spend(
  store: EventStore,
  sealer: SeedSealer,
  account: Account,
  state: SecondFactorState & { enrolled: string },
  proof: SecondFactorProof,
  ctx: CommandContext,
) {
  const stream = secondFactorStream(account);
  const command =
    'code' in proof
      ? { type: 'UseTotpCode' as const, account, step: await stepOf(sealer, account, state.enrolled, proof.code, ctx) }
      : { type: 'UseRecoveryCode' as const, account, digest: recoveryCodeDigest(proof.recovery_code) };
  if (command.type === 'UseTotpCode' && command.step === null) throw wrongProof();
  try {
    return await handle(store, stream, secondFactorDecider, command as Parameters<typeof handle>[3], ctx);
  } catch (err) {
    // A code used already, by this sign-in's twin or an earlier one, counts as a wrong one.
    if (err instanceof DomainError && err.error === 'code_already_used') throw wrongProof();
    throw err;
  }
}

/**
 * Checks and uses the second factor at a sign-in (or before removing it): 401 invalid_second_factor
 * when the code is wrong or used, so the login limit counts it as a wrong password.
 */
export async function useSecondFactor(
  store: EventStore,
  sealer: SeedSealer,
  account: Account,
  proof: SecondFactorProof,
  ctx: CommandContext,
): Promise<{ position: string | null; remaining: number }> {
  const state = await secondFactorOf(store, account);
  if (state.enrolled === null) throw wrongProof();
  const spent = await spend(store, sealer, account, { ...state, enrolled: state.enrolled }, proof, ctx);
  return { position: spent.position, remaining: spent.state.recovery_code_digests.length };
}

/** Removes the account's second factor, once the caller proved it holds it (`useSecondFactor`). */
export async function removeSecondFactor(store: EventStore, account: Account, ctx: CommandContext) {
  const command = { type: 'RemoveSecondFactor' as const, account };
  return handle(store, secondFactorStream(account), secondFactorDecider, command, ctx);
}
