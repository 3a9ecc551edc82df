import { z } from 'zod';
import { API_PREFIX } from '../app';
import { endpoint, Endpoint } from '../endpoints';
import { CONTRACT_VERSION } from '../openapi';

/** Where a newcomer who opens the API's root in a browser goes next. */
const signpostSchema = z
  .object({
    service: z.string(),
    contract_version: z.string().meta({ description: "The contract's version (info.version of the contract)" }),
    links: z.object({
      console: z.string().meta({ description: 'The web console, for members and administrators' }),
      readiness: z.string().meta({ description: 'Whether the service is ready to serve: 200 or 503, status only' }),
      health: z
        .string()
        .meta({ description: 'The detailed report of stores, projections and key ring (administrator session)' }),
      contract: z
        .string()
        .meta({ description: 'The OpenAPI contract (administrator session), also printed by `platform openapi`' }),
      developer_session: z.string().meta({ description: 'Where a developer starts: the session and its CSRF token' }),
    }),
  })
  .meta({ id: 'Signpost' });

/** GET /api/v1 (and /api/v1/): what the service is and where to go, instead of a 404. */
export function rootEndpoints(): Endpoint[] {
  return [
    endpoint({
      method: 'GET',
      path: '/',
      caller: { kind: 'anyone' },
      summary: 'Where to go next: the console, readiness, the contract and the developer session',
      response: signpostSchema,
      handler: () => ({
        message:
          'Platform API: open the console at /ui/; a signed-in administrator reads the contract at /api/v1/openapi',
        data: {
          service: 'Platform API',
          contract_version: CONTRACT_VERSION,
          links: {
            console: '/ui/',
            readiness: `${API_PREFIX}/readyz`,
            health: `${API_PREFIX}/health`,
            contract: `${API_PREFIX}/openapi`,
            developer_session: `${API_PREFIX}/developer/session`,
          },
        },
      }),
    }),
  ];
}
