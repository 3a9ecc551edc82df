import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './contract';
import { PlatformError } from './errors';
import { type Realm, sessionMiddleware } from './session';

export type { components, operations, paths } from './contract';
export { PlatformError } from './errors';
export type { Issue, RefusalEnvelope } from './errors';

/** Where the service is: its API base, e.g. `http://localhost:3000/api/v1`. */
export interface ClientOptions {
  baseUrl: string;
  /** Another fetch (a proxy agent, a test's); by default the global one. */
  fetch?: typeof fetch;
}

/** The two headers every open-API call carries (never in a URL): the API id and the key claimed once. */
export interface ApiKeyHeaders {
  'X-API-ID': string;
  'X-API-Key': string;
}

/** An operation's `X-CSRF-Token` header, which the session client sends itself, taken out of what a caller gives. */
type WithoutCsrf<Operation> = Operation extends { parameters: { header: infer Header } }
  ? Omit<Operation, 'parameters'> & {
      parameters: Omit<Operation['parameters'], 'header'> & { header?: Omit<Header, 'X-CSRF-Token'> };
    }
  : Operation;

/** The contract's paths as a session client calls them: the CSRF token is its business. */
export type SessionPaths = {
  [Path in keyof paths]: { [Method in keyof paths[Path]]: WithoutCsrf<paths[Path][Method]> };
};

/** The open API's paths (`/open/...`): what an API id and key may call. */
export type PartnerPaths = { [Path in keyof paths as Path extends `/open/${string}` ? Path : never]: paths[Path] };

/** Turns every answer outside 2xx into a thrown PlatformError carrying its status and `data.error`. */
const refusalsThrown: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await PlatformError.of(response.clone());
    return undefined;
  },
};

function client<Paths extends object>(options: ClientOptions, headers: Record<string, string>, use: Middleware[]) {
  const api = createClient<Paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  api.use(...use, refusalsThrown);
  return api;
}

function session(realm: Realm, options: ClientOptions): Client<SessionPaths> {
  const base = options.baseUrl.replace(/\/+$/, '');
  return client<SessionPaths>(options, {}, [sessionMiddleware(realm, base, options.fetch ?? globalThis.fetch)]);
}

/**
 * A member's session (the developer center): register or log in, apply, claim, request scopes,
 * rotate. It keeps the session cookie and sends the CSRF token on each write.
 */
export function developerSession(options: ClientOptions): Client<SessionPaths> {
  return session('developer', options);
}

/** An administrator's session (the console's calls): log in, review, approve, manage. */
export function administratorSession(options: ClientOptions): Client<SessionPaths> {
  return session('admin', options);
}

/** A partner server's client of the open API, with the API id and key on every call. */
export function partnerClient(options: ClientOptions & { credentials: ApiKeyHeaders }): Client<PartnerPaths> {
  return client<PartnerPaths>(options, { ...options.credentials }, []);
}

/**
 * The answer's body of a call that succeeded (every other one throws PlatformError): the envelope
 * `{code: 0, message, data}` as the contract types it.
 */
export async function ok<Data>(call: Promise<{ data?: Data; response: Response }>): Promise<Data> {
  const { data, response } = await call;
  if (data === undefined) throw await PlatformError.of(response);
  return data;
}
