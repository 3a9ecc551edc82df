/** A refusal the handler itself may answer, beyond those its caller, CSRF check and input imply. */
export interface Refusal {
  status: 401 | 403 | 404 | 409 | 422 | 429 | 503;
  /**
   * Every `data.error` it is answered with: the contract lists them as the enum of the status, and
   * the tests' contract checker refuses an answer with a reason no declaration names.
   */
  reasons: readonly [string, ...string[]];
  /** When the refusal happens, for the contract. */
  when: string;
}
