import { z } from 'zod';
import { endpoint, Endpoint, Refusal } from '../../shared/http/endpoints';
import {
  completePendingSignIn,
  noPendingSignIn,
  requirePendingSignIn,
  secondFactorEnrolled,
  SignInSide,
} from '../../shared/http/pending-sign-in';
import { rememberPosition } from '../../shared/http/session';
import { emptyBody } from '../../shared/http/validate';
import { Account } from './events';
import { beginTotp, confirmTotp, secondFactorOf, useSecondFactor } from './factors';
import { removalEndpoint } from './removal-endpoint';
import {
  accountOf,
  actorOf,
  BASE,
  codeSchema,
  ownAccount,
  recoveryCodeSchema,
  SecondFactorDeps,
  WHOSE,
} from './caller';

const wrongCode: Refusal = {
  status: 422,
  reasons: ['wrong_code'],
  when: "wrong_code: the code is not the app's current one (nor the one before or after)",
};

/** Enrolling TOTP: begin (a seed shown once), confirm with a code (recovery codes shown once), and the factor's state. */
function enrolmentEndpoints(side: SignInSide, deps: SecondFactorDeps): Endpoint[] {
  const base = BASE[side];
  return [
    endpoint({
      method: 'GET',
      path: `${base}/2fa`,
      caller: { kind: side },
      enrolsSecondFactor: true,
      summary: `Whether ${WHOSE[side]} account has a second factor, and how many recovery codes remain`,
      response: z.object({ totp: z.boolean(), recovery_codes_remaining: z.int().min(0) }),
      handler: async (ctx) => {
        const state = await secondFactorOf(deps.events, accountOf(ctx, side).account);
        const totp = state.enrolled !== null;
        return { data: { totp, recovery_codes_remaining: totp ? state.recovery_code_digests.length : 0 } };
      },
    }),
    endpoint({
      method: 'POST',
      path: `${base}/2fa/totp`,
      caller: { kind: side },
      enrolsSecondFactor: true,
      secretInAnswer: true,
      summary: `Begin enrolling an authenticator app for ${WHOSE[side]} account: the seed is shown once; confirm with a code`,
      body: emptyBody,
      response: z.object({
        secret: z.string().meta({ description: 'the seed in base32, to type into the app instead of scanning' }),
        otpauth_uri: z.string().meta({ description: 'what the QR code holds' }),
      }),
      refusals: [
        {
          status: 422,
          reasons: ['second_factor_enrolled'],
          when: 'second_factor_enrolled: the account has a second factor: remove it first',
        },
      ],
      handler: async (ctx) => {
        const { account, by } = ownAccount(ctx, side);
        const begun = await beginTotp(deps.events, deps.sealer, account, deps.issuer, by);
        rememberPosition(ctx, begun.position);
        return {
          data: { secret: begun.secret, otpauth_uri: begun.otpauth_uri },
          message: 'scan it, then confirm with a code',
        };
      },
    }),
    endpoint({
      method: 'POST',
      path: `${base}/2fa/totp/confirm`,
      caller: { kind: side },
      enrolsSecondFactor: true,
      secretInAnswer: true,
      summary: 'Confirm the authenticator app with its current code: the 10 recovery codes are shown once',
      body: z.strictObject({ code: codeSchema }),
      response: z.object({ recovery_codes: z.array(z.string()) }),
      refusals: [
        wrongCode,
        { status: 422, reasons: ['no_enrolment'], when: 'no_enrolment: no enrolment was begun (or it was confirmed)' },
        { status: 422, reasons: ['code_already_used'], when: 'code_already_used: this code was used already' },
      ],
      handler: async (ctx, { body }) => {
        const { account, by } = ownAccount(ctx, side);
        const confirmed = await confirmTotp(deps.events, deps.sealer, account, body.code, by);
        rememberPosition(ctx, confirmed.position);
        secondFactorEnrolled(ctx, side);
        return {
          data: { recovery_codes: confirmed.recovery_codes },
          message: 'second factor on: keep the recovery codes somewhere safe, they are not shown again',
        };
      },
    }),
  ];
}

const proofSchema = z.union([
  z.strictObject({ code: codeSchema }),
  z.strictObject({ recovery_code: recoveryCodeSchema }),
]);

/** The sign-in's second step: a code or a recovery code completes the pending sign-in. */
function signInEndpoint(side: SignInSide, deps: SecondFactorDeps): Endpoint {
  return endpoint({
    method: 'POST',
    path: `${BASE[side]}/login/second-factor`,
    caller: { kind: 'anyone' },
    summary: `Complete ${WHOSE[side]} sign-in with a code from the authenticator app, or a recovery code: a new session id and a new CSRF token`,
    body: proofSchema,
    response: z.object({ id: z.int().min(1), username: z.string(), recovery_codes_remaining: z.int().min(0) }),
    login: side,
    loginStep: 'second-factor',
    movesSession: true,
    refusals: [
      {
        status: 401,
        reasons: ['invalid_second_factor'],
        when: 'invalid_second_factor: the code or recovery code is wrong, or was used already',
      },
      noPendingSignIn,
    ],
    handler: async (ctx, { body }) => {
      const { identity } = requirePendingSignIn(ctx, side);
      const account: Account = { side, account_id: identity.id, username: identity.username };
      const used = await useSecondFactor(deps.events, deps.sealer, account, body, actorOf(ctx, side, identity.id));
      const pending = await completePendingSignIn(ctx, side);
      // The latest position last: the password step's, the code's use, the sign-in's record.
      rememberPosition(ctx, pending.position ?? null);
      rememberPosition(ctx, used.position);
      rememberPosition(ctx, (await deps.signedIn?.(ctx, pending.identity)) ?? null);
      return {
        data: { id: identity.id, username: identity.username, recovery_codes_remaining: used.remaining },
        message: 'recovery_code' in body ? 'signed in with a recovery code' : 'signed in',
      };
    },
  });
}

/** Every second-factor endpoint of one side: enrolment, removal, and the sign-in's second step. */
export const secondFactorEndpoints = (side: SignInSide, deps: SecondFactorDeps): Endpoint[] => [
  ...enrolmentEndpoints(side, deps),
  removalEndpoint(side, deps),
  signInEndpoint(side, deps),
];
