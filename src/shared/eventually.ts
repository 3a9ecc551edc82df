/** A value now, or a promise of it: an in-memory path answers at once, a store path later. */
export type Eventually<T> = T | Promise<T>;

/** `f` of the value, at once when there is one: a path that has its value makes no promise. */
export function andThen<T, U>(value: Eventually<T>, f: (value: T) => U): Eventually<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
