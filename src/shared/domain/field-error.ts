import { DomainError } from './decider';

/**
 * A refusal of one field of the input, under its own stable reason: the field named in the
 * problems too, so that every "this field is wrong" has one shape, whichever rule refused it
 * (data.issues: [{path, message}], as a validation_failed's; docs/rules.md).
 */
export function fieldError(error: string, field: string, message: string, next?: string): DomainError {
  return new DomainError(error, message, next, [{ path: field, message }]);
}
