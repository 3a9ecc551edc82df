import { exampleOf, typeLabel, type Schemas } from './schema';

const schemas: Schemas = {
  Node: {
    type: 'object',
    properties: {
      name: { type: 'string', example: 'root' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
    },
  },
  Status: { type: 'string', enum: ['active', 'revoked'] },
};

it("takes the contract's own example before building one", () => {
  expect(exampleOf({ type: 'string', example: 'ak_0123' }, schemas)).toBe('ak_0123');
  expect(exampleOf({ type: 'integer', examples: [42] }, schemas)).toBe(42);
});

it('builds one from the types: enums, nullable types, instants and bounds', () => {
  expect(exampleOf({ $ref: '#/components/schemas/Status' }, schemas)).toBe('active');
  expect(exampleOf({ type: ['string', 'null'], format: 'date-time' }, schemas)).toBe('2026-01-31T12:00:00.000Z');
  expect(exampleOf({ type: 'integer', minimum: 1 }, schemas)).toBe(1);
  expect(exampleOf({ anyOf: [{ type: 'boolean' }, { type: 'null' }] }, schemas)).toBe(true);
});

it('stops at a schema that contains itself', () => {
  expect(exampleOf({ $ref: '#/components/schemas/Node' }, schemas)).toEqual({ name: 'root', children: [{}] });
});

it('words types as a reader checks them', () => {
  expect(typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Node' } }, schemas)).toBe('array of Node');
  expect(typeLabel({ $ref: '#/components/schemas/Status' }, schemas)).toBe(
    'Status: string: one of "active", "revoked"',
  );
  expect(typeLabel({ type: 'string', enum: ['a', 'b'] }, schemas)).toBe('string: one of "a", "b"');
  expect(typeLabel({ type: ['string', 'null'], format: 'date-time' }, schemas)).toBe('string or null (date-time)');
});
