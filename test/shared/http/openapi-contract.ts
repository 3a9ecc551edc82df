import { logInAdmin, startPlatform, TestPlatform } from '../../support/platform';

export interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, unknown>;
  anyOf?: unknown[];
}

export interface Operation {
  tags?: string[];
  parameters?: {
    in: string;
    name: string;
    required?: boolean;
    schema?: { pattern?: string; enum?: string[]; minimum?: number };
  }[];
  requestBody?: unknown;
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
}
export type Contract = {
  openapi: string;
  security?: Record<string, string[]>[];
  info: { version: string; 'x-implementation-version': string; contact?: unknown };
  servers: { url: string; variables?: Record<string, { default: string }> }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    securitySchemes: Record<string, { type: string; in: string; name: string }>;
    schemas: Record<string, Schema>;
  };
};

/**
 * The contract GET /openapi serves an administrator, fetched once per test file: call
 * useServedContract() at the top of the file; `t` and `contract` hold the platform and the document
 * once its beforeAll has run.
 */
export let t: TestPlatform;
export let contract: Contract;

export function useServedContract(): void {
  beforeAll(async () => {
    t = await startPlatform();
    const admin = t.client();
    await logInAdmin(admin);
    const res = await admin
      .get('/api/v1/openapi')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    contract = res.body as Contract;
  });
  afterAll(() => t.close());
}

export const resolve = (schema: Schema | undefined): Schema | undefined =>
  schema?.$ref ? contract.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;

export const operations = () =>
  Object.entries(contract.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
