/**
 * Stands in for the dependencies of endpoint factories when only their declarations are wanted
 * (the OpenAPI contract printed without stores): any property of it is another stand-in, and
 * calling one throws, so a handler that ran by mistake fails loudly instead of doing I/O.
 */
export function declarationsOnly<T>(path = 'dependencies', known: object = {}): T {
  // `known` as own properties of the target too, so that spreading the stand-in keeps them.
  const standIn: object = new Proxy(
    Object.assign(function unavailable() {}, known),
    {
      // What a declaration reads (a setting that bounds an input) is `known`; everything else stands in.
      get: (_target, property) =>
        property in known
          ? Reflect.get(known, property)
          : property === 'then'
            ? undefined
            : declarationsOnly(`${path}.${String(property)}`),
      apply: () => {
        throw new Error(`${path} is not available: these endpoints were declared for their contract only`);
      },
    },
  );
  return standIn as T;
}
