import { Decider, DomainError } from '../../shared/domain/decider';
import { Account, SecondFactorEvent } from './events';

/** An account's second-factor stream: one per account, members and administrators apart. */
export const secondFactorStream = ({ side, account_id }: Pick<Account, 'side' | 'account_id'>): string =>
  `second-factor-${side}-${account_id}`;

export interface SecondFactorState {
  /** The sealed seed being enrolled (begun, not confirmed), and the confirmed one. */
  enrolling: string | null;
  enrolled: string | null;
  recovery_code_digests: string[];
  /** The last time step a code was used at: a code of this step or an earlier one is refused. */
  last_step: number;
}

export type SecondFactorCommand =
  | { type: 'BeginTotp'; account: Account; sealed_secret: string }
  | { type: 'ConfirmTotp'; account: Account; step: number; recovery_code_digests: string[] }
  | { type: 'UseTotpCode'; account: Account; step: number }
  | { type: 'UseRecoveryCode'; account: Account; digest: string }
  | { type: 'RemoveSecondFactor'; account: Account };

const codeUsed = () =>
  new DomainError('code_already_used', 'this code was used already: wait for the next one in your app');

function decide(command: SecondFactorCommand, state: SecondFactorState): SecondFactorEvent[] {
  const { account } = command;
  switch (command.type) {
    case 'BeginTotp':
      if (state.enrolled)
        throw new DomainError('second_factor_enrolled', 'a second factor is enrolled already: remove it first');
      return [{ type: 'TotpEnrolmentBegun', data: { ...account, sealed_secret: command.sealed_secret } }];
    case 'ConfirmTotp':
      if (!state.enrolling)
        throw new DomainError('no_enrolment', 'no enrolment was begun, or it was confirmed: begin one (…/2fa/totp)');
      if (command.step <= state.last_step) throw codeUsed();
      return [
        {
          type: 'TotpEnrolled',
          data: { ...account, step: command.step, recovery_code_digests: command.recovery_code_digests },
        },
      ];
    case 'UseTotpCode':
      if (command.step <= state.last_step) throw codeUsed();
      return [{ type: 'TotpCodeUsed', data: { ...account, step: command.step } }];
    case 'UseRecoveryCode': {
      const remaining = state.recovery_code_digests.filter((digest) => digest !== command.digest);
      if (remaining.length === state.recovery_code_digests.length)
        throw new DomainError('code_already_used', 'this recovery code is not one of yours, or was used already');
      return [
        {
          type: 'RecoveryCodeUsed',
          data: { ...account, recovery_code_digest: command.digest, remaining: remaining.length },
        },
      ];
    }
    case 'RemoveSecondFactor':
      if (!state.enrolled) throw new DomainError('no_second_factor', 'this account has no second factor to remove');
      return [{ type: 'SecondFactorRemoved', data: account }];
  }
}

function evolve(state: SecondFactorState, event: SecondFactorEvent): SecondFactorState {
  switch (event.type) {
    case 'TotpEnrolmentBegun':
      return { ...state, enrolling: event.data.sealed_secret };
    case 'TotpEnrolled':
      return {
        ...state,
        enrolled: state.enrolling,
        enrolling: null,
        recovery_code_digests: event.data.recovery_code_digests,
        last_step: event.data.step,
      };
    case 'TotpCodeUsed':
      return { ...state, last_step: event.data.step };
    case 'RecoveryCodeUsed':
      return {
        ...state,
        recovery_code_digests: state.recovery_code_digests.filter((d) => d !== event.data.recovery_code_digest),
      };
    case 'SecondFactorRemoved':
      return { ...state, enrolled: null, enrolling: null, recovery_code_digests: [] };
  }
}

/** An account's TOTP and recovery codes: enrolled once confirmed, each code and recovery code used once. */
export const secondFactorDecider: Decider<SecondFactorCommand, SecondFactorEvent, SecondFactorState> = {
  initialState: { enrolling: null, enrolled: null, recovery_code_digests: [], last_step: -1 },
  decide,
  evolve,
};
