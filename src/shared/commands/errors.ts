/** The caller's credentials were not accepted (HTTP 401). The message never says which part was wrong. */
export class AuthenticationFailed extends Error {
  constructor(
    readonly error = 'invalid_credentials',
    message = 'username or password is wrong',
  ) {
    super(message);
    this.name = 'AuthenticationFailed';
  }
}

/**
 * A request retried under its idempotency key finds its write already recorded, but the answer
 * carried a secret shown once, which nothing keeps: the secret was issued, and is not shown again.
 */
export class SecretAlreadyIssued extends Error {
  constructor() {
    super('the first request under this Idempotency-Key was recorded and issued a secret, which is shown once only');
    this.name = 'SecretAlreadyIssued';
  }
}

/** Optimistic concurrency exhausted its retries (HTTP 409). */
export class ConcurrencyConflict extends Error {
  constructor(readonly stream: string) {
    super(`stream ${stream} kept changing under concurrent writers`);
    this.name = 'ConcurrencyConflict';
  }
}
