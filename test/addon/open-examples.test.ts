import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { platformContract } from '../../src/app';

// The developer center's reference shows these examples as the answer a partner gets: each must be one the schema allows.
describe("the open API's schemas in the contract", () => {
  const contract = platformContract() as unknown as {
    components: {
      schemas: Record<string, { examples?: unknown[]; properties?: Record<string, { description?: string }> }>;
    };
  };
  const open = ['CatalogueEntry', 'MemberGroup'];
  const ajv = new Ajv2020({ strict: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(contract as object, 'contract');

  it.each(open)('%s has an example, and the example passes its schema', (name) => {
    const { examples } = contract.components.schemas[name]!;
    expect(examples?.length).toBeGreaterThan(0);
    const validate = ajv.getSchema(`contract#/components/schemas/${name}`)!;
    for (const example of examples!) expect([validate(example), validate.errors]).toEqual([true, null]);
    // The check itself: a value of the wrong shape fails it.
    expect(validate({ id: 'x' })).toBe(false);
  });

  it.each(open)('%s describes each of its fields', (name) => {
    const fields = Object.entries(contract.components.schemas[name]!.properties ?? {});
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter(([, field]) => !field.description).map(([field]) => field)).toEqual([]);
  });
});
