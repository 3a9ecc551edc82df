import { z } from 'zod';
import { AuthenticationFailed } from '../../shared/commands/errors';
import { DomainError } from '../../shared/domain/decider';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { SignInSide } from '../../shared/http/pending-sign-in';
import { tooManyPasswordFailures } from '../../shared/http/password-failures';
import { rememberPosition, sessionOf } from '../../shared/http/session';
import { accountOf, actorOf, BASE, codeSchema, recoveryCodeSchema, SecondFactorDeps } from './caller';
import { hasSecondFactor, removeSecondFactor, useSecondFactor } from './factors';

const removalSchema = z.union([
  z.strictObject({ password: z.string().max(1024), code: codeSchema }),
  z.strictObject({ password: z.string().max(1024), recovery_code: recoveryCodeSchema }),
]);

/**
 * DELETE …/2fa: the password and a code (or a recovery code) prove the account's holder asks, not
 * whoever found its session open. Under REQUIRE_SECOND_FACTOR, the session is then sent to enrol again.
 */
export function removalEndpoint(side: SignInSide, deps: SecondFactorDeps): Endpoint {
  return endpoint({
    method: 'DELETE',
    path: `${BASE[side]}/2fa`,
    caller: { kind: side },
    enrolsSecondFactor: true,
    summary: 'Remove the second factor (TOTP and its recovery codes), with the password and a code or a recovery code',
    body: removalSchema,
    response: z.null(),
    refusals: [
      {
        status: 422,
        reasons: ['wrong_current_password'],
        when: 'wrong_current_password: the password is wrong; nothing changes',
      },
      {
        status: 422,
        reasons: ['wrong_code'],
        when: 'wrong_code: the code or recovery code is wrong, or was used already; nothing changes',
      },
      {
        status: 422,
        reasons: ['no_second_factor'],
        when: 'no_second_factor: the account has no second factor to remove',
      },
      tooManyPasswordFailures,
    ],
    handler: async (ctx, { body }) => {
      const { account, identity } = accountOf(ctx, side);
      await deps.checkPassword(ctx, identity, body.password);
      // Said before the code is judged: with no factor enrolled, no code could be right.
      if (!(await hasSecondFactor(deps.events, account)))
        throw new DomainError('no_second_factor', 'this account has no second factor to remove');
      const by = actorOf(ctx, side, account.account_id);
      const { password: _checked, ...proof } = body;
      await useSecondFactor(deps.events, deps.sealer, account, proof, by).catch((err: unknown) => {
        if (!(err instanceof AuthenticationFailed)) throw err;
        throw new DomainError('wrong_code', 'the code is wrong, or was used already: nothing changed');
      });
      rememberPosition(ctx, (await removeSecondFactor(deps.events, account, by)).position);
      const still = sessionOf(ctx)[side];
      if (still && (await deps.covered(ctx, identity))) still.second_factor_enrolment_required = true;
      return { data: null, message: 'second factor removed' };
    },
  });
}
