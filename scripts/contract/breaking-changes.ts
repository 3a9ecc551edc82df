/**
 * The changes between two versions of the contract that break a client written against the older:
 * an operation, a parameter, a field or an enum value removed, a type or a bound narrowed, a new
 * required input. Answers may grow (docs/rules.md): a field added to an answer breaks nobody.
 */
type Schema = Record<string, unknown>;
type Document = { info: { version: string }; paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** What a client sends (a narrowing breaks it), or what it receives (a removal breaks it). */
type Io = 'input' | 'output';

const asArray = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
const missingFrom = (from: unknown[], to: unknown[]): unknown[] => from.filter((v) => !to.some((w) => JSON.stringify(w) === JSON.stringify(v)));

/** Two schemas an answer matches both of, as one: see `Comparison.merged`. */
function mergeTwo(into: Schema, part: Schema): Schema {
  const merged: Schema = { ...part, ...into };
  const properties = { ...((part.properties ?? {}) as Record<string, Schema>) };
  for (const [name, property] of Object.entries((into.properties ?? {}) as Record<string, Schema>)) {
    properties[name] = properties[name] ? { allOf: [property, properties[name]] } : property;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  const required = [...new Set([...asArray(into.required), ...asArray(part.required)])];
  if (required.length > 0) merged.required = required;
  if (into.enum !== undefined && part.enum !== undefined) merged.enum = asArray(into.enum).filter((v) => asArray(part.enum).some((w) => JSON.stringify(w) === JSON.stringify(v)));
  return merged;
}

/** The bounds that, raised (minimums) or lowered (maximums), refuse input the older contract took. */
const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'];
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'];

class Comparison {
  readonly breaks: string[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly before: Document,
    private readonly after: Document,
  ) {}

  operations(): void {
    for (const [path, operations] of Object.entries(this.before.paths ?? {})) {
      for (const [method, was] of Object.entries(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        const now = this.after.paths?.[path]?.[method];
        if (!now) this.breaks.push(`${where}: operation removed`);
        else this.operation(was, now, where);
      }
    }
  }

  private operation(was: Operation, now: Operation, where: string): void {
    const key = (p: Parameter) => `${p.in} ${p.name}`;
    for (const parameter of was.parameters ?? []) {
      if (!(now.parameters ?? []).some((p) => key(p) === key(parameter))) this.breaks.push(`${where}: parameter ${key(parameter)} removed`);
    }
    for (const parameter of now.parameters ?? []) {
      const old = (was.parameters ?? []).find((p) => key(p) === key(parameter));
      if (parameter.required && !old?.required) this.breaks.push(`${where}: parameter ${key(parameter)} newly required`);
    }
    if (now.requestBody?.required && !was.requestBody?.required) this.breaks.push(`${where}: request body newly required`);
    this.media(was.requestBody?.content, now.requestBody?.content, `${where} request`, 'input');
    for (const [status, response] of Object.entries(was.responses ?? {})) {
      this.media(response.content, now.responses?.[status]?.content, `${where} ${status}`, 'output');
    }
  }

  private media(was: Record<string, { schema?: Schema }> | undefined, now: Record<string, { schema?: Schema }> | undefined, where: string, io: Io): void {
    for (const [type, { schema }] of Object.entries(was ?? {})) {
      const next = now?.[type]?.schema;
      if (!next) this.breaks.push(`${where}: ${type} removed`);
      else if (schema) this.schema(schema, next, `${where} body`, io);
    }
  }

  private resolve(schema: Schema, document: Document): Schema {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    return document.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
  }

  /**
   * An answer that is every one of its allOf schemas at once (a shared Refusal and the enum of an
   * operation's reasons beside it) as the one schema they make: their fields, a field in two of
   * them as both (merged when it is compared), what either requires, and the narrower enum.
   */
  private merged(schema: Schema, document: Document): Schema {
    const parts = asArray(schema.allOf) as Schema[];
    if (parts.length === 0) return schema;
    const { allOf: _parts, ...rest } = schema;
    return [rest, ...parts.map((part) => this.merged(this.resolve(part, document), document))].reduce(mergeTwo, {});
  }

  private schema(wasRef: Schema, nowRef: Schema, where: string, io: Io): void {
    const pair = `${JSON.stringify(wasRef.$ref)}→${JSON.stringify(nowRef.$ref)}@${io}`;
    if (wasRef.$ref && this.seen.has(pair)) return;
    this.seen.add(pair);
    // Inputs keep their allOf choices apart (compared one by one below); an answer is all of them at once.
    const read = (schema: Schema, document: Document) => (io === 'output' ? this.merged(this.resolve(schema, document), document) : this.resolve(schema, document));
    const was = read(wasRef, this.before);
    const now = read(nowRef, this.after);
    const breaks = (what: string) => this.breaks.push(`${where}: ${what}`);

    const narrowedTypes = io === 'input' ? missingFrom(asArray(was.type), asArray(now.type)) : missingFrom(asArray(now.type), asArray(was.type));
    if (was.type !== undefined && narrowedTypes.length > 0) breaks(`type ${JSON.stringify(was.type)} became ${JSON.stringify(now.type)}`);
    // An enum new to an answer lists what was always sent; new to an input, it refuses what was taken.
    if (was.enum !== undefined || (io === 'input' && now.enum !== undefined)) {
      const removed = was.enum === undefined ? ['(any value)'] : missingFrom(asArray(was.enum), asArray(now.enum ?? was.enum));
      if (removed.length > 0) breaks(`enum value ${removed.map((v) => JSON.stringify(v)).join(', ')} removed`);
    }
    if (io === 'input') this.bounds(was, now, breaks);

    const wasRequired = asArray(was.required);
    const nowRequired = asArray(now.required);
    if (io === 'input') for (const name of missingFrom(nowRequired, wasRequired)) breaks(`${String(name)} newly required`);
    else for (const name of missingFrom(wasRequired, nowRequired)) breaks(`${String(name)} no longer always answered`);

    const wasProperties = (was.properties ?? {}) as Record<string, Schema>;
    const nowProperties = (now.properties ?? {}) as Record<string, Schema>;
    for (const [name, property] of Object.entries(wasProperties)) {
      if (!nowProperties[name]) breaks(`field ${name} removed`);
      else this.schema(property, nowProperties[name], `${where}.${name}`, io);
    }
    if (was.items && now.items) this.schema(was.items as Schema, now.items as Schema, `${where}[]`, io);
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      const wasAll = asArray(was[keyword]) as Schema[];
      const nowAll = asArray(now[keyword]) as Schema[];
      if (wasAll.length === nowAll.length) wasAll.forEach((s, i) => this.schema(s, nowAll[i]!, `${where} ${keyword}[${i}]`, io));
      else if (wasAll.length > 0) breaks(`${keyword} changed from ${wasAll.length} to ${nowAll.length} choices`);
    }
  }

  /** An input the older contract took that the newer refuses: a bound, a pattern or a format added or tightened. */
  private bounds(was: Schema, now: Schema, breaks: (what: string) => void): void {
    for (const bound of LOWER_BOUNDS) {
      if (now[bound] !== undefined && (was[bound] === undefined || (now[bound] as number) > (was[bound] as number))) breaks(`${bound} raised to ${String(now[bound])}`);
    }
    for (const bound of UPPER_BOUNDS) {
      if (now[bound] !== undefined && (was[bound] === undefined || (now[bound] as number) < (was[bound] as number))) breaks(`${bound} lowered to ${String(now[bound])}`);
    }
    for (const keyword of ['pattern', 'format', 'const']) {
      if (now[keyword] !== undefined && JSON.stringify(now[keyword]) !== JSON.stringify(was[keyword])) breaks(`${keyword} now ${JSON.stringify(now[keyword])}`);
    }
    if (now.additionalProperties === false && was.additionalProperties !== false) breaks('no longer takes fields it does not name');
  }
}

export function breakingChanges(before: Document, after: Document): string[] {
  const comparison = new Comparison(before, after);
  comparison.operations();
  return [...new Set(comparison.breaks)];
}

const major = (version: string) => Number(version.split('.')[0]);

/** The breaking changes that need a new major version of the contract's info.version, and did not get one. */
export function unannouncedBreakingChanges(before: Document, after: Document): string[] {
  return major(after.info.version) > major(before.info.version) ? [] : breakingChanges(before, after);
}
