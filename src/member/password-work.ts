import type { PasswordHasher } from './passwords';
import { HttpError } from '../shared/http/envelope';
import type { Refusal } from '../shared/http/endpoints';

export const passwordWorkBusy: Refusal = {
  status: 503,
  reasons: ['password_checks_busy'],
  when: 'password_checks_busy: too many passwords are being checked at once; retry after Retry-After',
};

/**
 * At most `max` password hashes at once (each holds ~19 MiB and a thread for tens of ms): beyond
 * them a login or registration is answered 503 at once instead of queueing behind a flood, so the
 * service stays responsive and the client knows to retry.
 */
export function boundPasswordWork(hasher: PasswordHasher, max: number): PasswordHasher & { inFlight(): number } {
  let inFlight = 0;
  const bounded = <T>(work: () => Promise<T>): Promise<T> => {
    if (inFlight >= max) {
      return Promise.reject(
        new HttpError(
          503,
          'password_checks_busy',
          'too many passwords are being checked right now: retry in a moment',
          undefined,
          { 'Retry-After': '1' },
        ),
      );
    }
    inFlight += 1;
    return work().finally(() => {
      inFlight -= 1;
    });
  };
  return {
    inFlight: () => inFlight,
    hash: (password) => bounded(() => hasher.hash(password)),
    verify: (hash, password) => bounded(() => hasher.verify(hash, password)),
    verifyNothing: (password) => bounded(() => hasher.verifyNothing(password)),
  };
}
