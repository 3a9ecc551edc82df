import { fieldsOf, resolve, typeLabel, type Schema, type Schemas } from './schema';

/** A response's fields as a nested list: name, type, whether it is always there, and what it means. */
export function SchemaTree({ schema, schemas, seen = [] }: { schema: Schema; schemas: Schemas; seen?: string[] }) {
  const fields = fieldsOf(schema, schemas);
  if (!fields.length) return null;
  return (
    <ul class="schema-tree">
      {fields.map(({ name, schema: field, required }) => {
        const { name: named } = resolve(field.type === 'array' && field.items ? field.items : field, schemas);
        // A schema that contains itself is named, not opened again.
        const nested =
          named && seen.includes(named) ? null : (
            <SchemaTree schema={field} schemas={schemas} seen={named ? [...seen, named] : seen} />
          );
        const description = field.description ?? (named ? schemas[named]?.description : undefined);
        return (
          <li key={name}>
            <code class="field-name">{name}</code> <span class="type">{typeLabel(field, schemas)}</span>
            {required ? null : <span class="optional"> optional</span>}
            {description && <span class="description">: {description}</span>}
            {nested}
          </li>
        );
      })}
    </ul>
  );
}
