/**
 * The contract's JSON Schemas, read for people: what a field is called, its type in words, and an
 * example answer built from the schema where the contract gives none.
 */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  description?: string;
  const?: unknown;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  example?: unknown;
  examples?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: boolean | Schema;
}

export type Schemas = Record<string, Schema>;

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The schema a `$ref` names, with the name it is known by; a schema without one as it is. */
export function resolve(schema: Schema, schemas: Schemas): { schema: Schema; name?: string } {
  if (!schema.$ref) return { schema };
  const name = refName(schema.$ref);
  return { schema: schemas[name] ?? {}, name };
}

const typeOf = (schema: Schema): string =>
  Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');

/** "array of CatalogueEntry", "integer, at least 1", "string: one of a, b": what a reader checks a value against. */
export function typeLabel(schema: Schema, schemas: Schemas): string {
  const { schema: s, name } = resolve(schema, schemas);
  if (s.type === 'array' && s.items) return `array of ${typeLabel(s.items, schemas)}`;
  // A named object is opened in the tree below it; a named value says what it holds.
  if (name) return s.type === 'object' || s.properties ? name : `${name}: ${typeLabel(s, schemas)}`;
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return variants.map((v) => typeLabel(v, schemas)).join(' or ');
  return valueLabel(s);
}

/** A plain value's type in words, with the constraint that narrows it, if any. */
function valueLabel(s: Schema): string {
  const base = typeOf(s) + (s.format ? ` (${s.format})` : '');
  if (s.const !== undefined) return `${base}, always ${JSON.stringify(s.const)}`;
  if (s.enum) return `${base}: one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.minimum !== undefined && s.minimum > Number.MIN_SAFE_INTEGER) return `${base}, at least ${s.minimum}`;
  return base;
}

/** The fields of an object schema (through a `$ref` or an array's items), each with whether it is always there. */
export function fieldsOf(schema: Schema, schemas: Schemas): { name: string; schema: Schema; required: boolean }[] {
  let { schema: s } = resolve(schema, schemas);
  if (s.type === 'array' && s.items) s = resolve(s.items, schemas).schema;
  return Object.entries(s.properties ?? {}).map(([name, field]) => ({
    name,
    schema: field,
    required: s.required?.includes(name) ?? false,
  }));
}

const SAMPLE_INSTANT = '2026-01-31T12:00:00.000Z';

/** An example value: the contract's own where it has one, else one built from the types (as API explorers do). */
export function exampleOf(schema: Schema, schemas: Schemas, seen: string[] = []): unknown {
  const { schema: s, name } = resolve(schema, schemas);
  // A schema that contains itself stops at its second appearance.
  if (name && seen.includes(name)) return {};
  const within = name ? [...seen, name] : seen;
  const given = givenExample(s);
  if (given) return given.value;
  const variants = s.anyOf ?? s.oneOf;
  if (variants?.length) return exampleOf(variants[0]!, schemas, within);
  return builtExample(s, schemas, within);
}

/** The value the contract itself gives: its example, its first example, its constant or its first choice. */
function givenExample(s: Schema): { value: unknown } | undefined {
  if (s.example !== undefined) return { value: s.example };
  if (s.examples?.length) return { value: s.examples[0] };
  if (s.const !== undefined) return { value: s.const };
  if (s.enum?.length) return { value: s.enum[0] };
  return undefined;
}

/** An example built from the schema's type; a nullable type is shown with a value, not null. */
function builtExample(s: Schema, schemas: Schemas, within: string[]): unknown {
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([field, value]) => [field, exampleOf(value, schemas, within)]),
      );
    case 'array':
      return s.items ? [exampleOf(s.items, schemas, within)] : [];
    case 'integer':
    case 'number':
    case 'boolean':
    case 'string':
      return scalarExample(type, s);
    default:
      return s.properties ? exampleOf({ ...s, type: 'object' }, schemas, within) : null;
  }
}

function scalarExample(type: 'integer' | 'number' | 'boolean' | 'string', s: Schema): unknown {
  if (type === 'boolean') return true;
  if (type === 'string') return s.format === 'date-time' ? SAMPLE_INSTANT : 'string';
  return s.minimum !== undefined && s.minimum > 0 ? s.minimum : 0;
}
