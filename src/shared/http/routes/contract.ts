import { z } from 'zod';
import { endpoint, Endpoint } from '../endpoints';
import { OpenApiRefusal } from '../open-api-refusals';
import { contractOf } from '../openapi';

/** GET /openapi: the contract, generated from the endpoints themselves and the refusals the slices declared. */
export function contractEndpoints(endpoints: () => Endpoint[], partnerRefusals: readonly OpenApiRefusal[]): Endpoint[] {
  let document: ReturnType<typeof contractOf> | undefined;
  return [
    endpoint({
      method: 'GET',
      path: '/openapi',
      caller: { kind: 'admin' },
      summary: 'The OpenAPI 3.1 contract of this service',
      raw: 'application/json',
      response: z.looseObject({
        openapi: z.literal('3.1.0'),
        info: z.looseObject({ version: z.string() }),
        paths: z.looseObject({}),
      }),
      handler: (ctx) => {
        document ??= contractOf(endpoints(), partnerRefusals);
        ctx.body = document;
      },
    }),
  ];
}
