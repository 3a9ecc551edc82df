import { DomainError } from '../domain/decider';

/**
 * Domain refusals say what to do next in the domain's words (DomainError.next); a slice's
 * endpoints know where that is done. Runs a command and, when it is refused with a next step the
 * table knows, adds the route to the message.
 */
export function routeHints(routes: Readonly<Record<string, string>>) {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof DomainError) || err.next === undefined || !Object.hasOwn(routes, err.next)) throw err;
      throw new DomainError(err.error, `${err.message} (${routes[err.next]})`, err.next, err.problems);
    }
  };
}
