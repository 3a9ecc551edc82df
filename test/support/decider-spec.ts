import { Decider, DomainError, DomainEvent, fold } from '../../src/shared/domain/decider';

/** Given events, when a command, then events or a DomainError: how every decider test reads. */
export function given<Command, Event extends DomainEvent, State>(
  decider: Decider<Command, Event, State>,
  history: Event[],
) {
  return {
    when(command: Command) {
      const run = () => decider.decide(command, fold(decider, history));
      return {
        then(expected: Event[]) {
          expect(run()).toEqual(expected);
        },
        /**
         * Refused with this reason, and, when given, a message that says it (a string it contains, or
         * a pattern); the refusal is returned, for what else the test asserts of it (its field).
         */
        thenRefuses(error: string, message?: string | RegExp): DomainError {
          let caught: unknown;
          try {
            run();
          } catch (err) {
            caught = err;
          }
          expect(caught).toBeInstanceOf(DomainError);
          expect((caught as DomainError).error).toBe(error);
          if (message !== undefined) expect((caught as DomainError).message).toMatch(message);
          return caught as DomainError;
        },
      };
    },
  };
}
