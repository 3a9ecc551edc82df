import { DomainError } from '../domain/decider';

/** One line for stderr: operators read the message, scripts can match the stable reason. */
export function describeFailure(err: unknown): string {
  if (err instanceof DomainError) return `${err.message} (${err.error})`;
  return err instanceof Error ? err.message : String(err);
}
