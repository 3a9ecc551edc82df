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

/** Optimistic concurrency exhausted its retries (HTTP 409). */
export class ConcurrencyConflict extends Error {
  constructor(readonly stream: string) {
    super(`stream ${stream} kept changing under concurrent writers`);
    this.name = 'ConcurrencyConflict';
  }
}
