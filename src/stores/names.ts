/**
 * Read-model collection and field names end up in SQL text and MongoDB paths, so only plain
 * identifiers pass (a dot or a leading $ would be a path or an operator in MongoDB). One rule for
 * every adapter, so a name valid in one adapter set is valid in the other.
 */
const NAME = /^[a-z][a-z0-9_]*$/;

export function checkName(kind: 'collection' | 'field', name: string): string {
  if (!NAME.test(name)) throw new RangeError(`invalid ${kind} name ${JSON.stringify(name)}: use ${NAME}`);
  return name;
}
