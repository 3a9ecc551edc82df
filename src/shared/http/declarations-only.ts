/**
 * Stands in for the dependencies of endpoint factories when only their declarations are wanted
 * (the OpenAPI contract printed without stores): any property of it is another stand-in, and
 * calling one throws, so a handler that ran by mistake fails loudly instead of doing I/O.
 */
export function declarationsOnly<T>(path = 'dependencies'): T {
  const standIn: object = new Proxy(function unavailable() {}, {
    get: (_target, property) => (property === 'then' ? undefined : declarationsOnly(`${path}.${String(property)}`)),
    apply: () => {
      throw new Error(`${path} is not available: these endpoints were declared for their contract only`);
    },
  });
  return standIn as T;
}
