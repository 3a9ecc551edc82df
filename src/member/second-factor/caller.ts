import { z } from 'zod';
import { CommandContext } from '../../shared/commands/context';
import { commandContext } from '../../shared/http/command-context';
import { AppContext } from '../../shared/http/context';
import { adminOf, memberOf } from '../../shared/http/guards';
import { SignInSide } from '../../shared/http/pending-sign-in';
import { AdminIdentity, MemberIdentity } from '../../shared/http/session';
import { EventStore } from '../../stores/ports';
import { Account } from './events';
import { SeedSealer } from './sealer';

/** What the second factor's endpoints take, for one side (members' or administrators'). */
export interface SecondFactorDeps {
  events: EventStore;
  sealer: SeedSealer;
  /** The otpauth URI's issuer (TOTP_ISSUER). */
  issuer: string;
  /** Whether REQUIRE_SECOND_FACTOR covers this signed-in account. */
  covered(ctx: AppContext, identity: MemberIdentity | AdminIdentity): Promise<boolean>;
  /** Whether the password is the account's (DELETE …/2fa), counted as a wrong current password is. */
  checkPassword(ctx: AppContext, identity: MemberIdentity | AdminIdentity, password: string): Promise<void>;
  /** Told once a sign-in completed (an administrator's is recorded); answers a position to wait on. */
  signedIn?(ctx: AppContext, identity: MemberIdentity | AdminIdentity): Promise<string | null>;
}

export const BASE: Record<SignInSide, string> = { member: '/developer', admin: '/admin' };
export const WHOSE = { member: "the member's", admin: "the administrator's" } as const;

export const codeSchema = z
  .string()
  .regex(/^\d{6}$/, { error: 'a code is the 6 digits the authenticator app shows' })
  .meta({ example: '123456' });
export const recoveryCodeSchema = z.string().min(1).max(64).meta({ example: 'abcd-efgh-jkmn' });

/** The signed-in account on `side`, as its second-factor stream names it. */
export function accountOf(ctx: AppContext, side: SignInSide): { account: Account; identity: MemberIdentity } {
  const identity = side === 'member' ? memberOf(ctx) : adminOf(ctx);
  return { account: { side, account_id: identity.id, username: identity.username }, identity };
}

export const actorOf = (ctx: AppContext, side: SignInSide, id: number): CommandContext =>
  commandContext(ctx, { kind: side, id });

/** The signed-in account on `side`, and its holder as the actor of a command on it. */
export function ownAccount(ctx: AppContext, side: SignInSide): { account: Account; by: CommandContext } {
  const { account } = accountOf(ctx, side);
  return { account, by: actorOf(ctx, side, account.account_id) };
}
