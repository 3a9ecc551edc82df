import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import type { JWK, CryptoKey } from 'jose' with { 'resolution-mode': 'import' };
import { providerOf } from '../../../src/access/sso/provider';
import { ssoSettingsOf } from '../../../src/access/sso/settings';
import { parseSettings } from '../../../src/config';

/**
 * openid-client's checks of the ID token, which oidc-provider cannot be made to break: a provider
 * of the test's own signs with jose (what openid-client itself verifies with) a token whose
 * audience, expiry or nonce the test chooses, and answers it from its token endpoint.
 */
// jose is an ES module, compiled for jest (jest.config.js) as openid-client, which uses it, is.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { exportJWK, generateKeyPair, SignJWT } = require('jose') as typeof Jose;
const CLIENT_ID = 'platform';
let server: Server;
let issuer: string;
let key: CryptoKey;
let jwk: JWK;
/** What the next token answer's ID token claims. */
let next: (nonce: string) => Record<string, unknown>;
let nonceOfRequest = '';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') {
      return res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
    }
    if (req.url === '/jwks') return res.end(JSON.stringify({ keys: [jwk] }));
    void new SignJWT(next(nonceOfRequest))
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(key)
      .then((id_token) => res.end(JSON.stringify({ access_token: 'at', token_type: 'Bearer', id_token })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const now = () => Math.floor(Date.now() / 1000);
const good = (nonce: string) => ({ iss: issuer, aud: CLIENT_ID, sub: 'alice', nonce, iat: now(), exp: now() + 300 });

/** The refusal's message with openid-client's cause, which names the claim that failed. */
async function refusal(claims: (nonce: string) => Record<string, unknown>): Promise<string> {
  try {
    await finishWith(claims);
  } catch (err) {
    const { message, cause } = err as Error;
    return `${message} ${cause instanceof Error ? cause.message : ''}`;
  }
  throw new Error('the token was taken');
}

async function finishWith(claims: (nonce: string) => Record<string, unknown>) {
  const settings = ssoSettingsOf({
    ...parseSettings({}),
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: 'secret',
  })!;
  const provider = providerOf(settings);
  const { pending } = await provider.begin();
  nonceOfRequest = pending.nonce;
  next = claims;
  return provider.finish(`code=the-code&state=${pending.state}`, pending);
}

describe("openid-client's checks of the ID token the callback relies on", () => {
  it('takes a token signed by the provider for this client, unexpired, with the nonce', async () => {
    const { claims } = await finishWith(good);
    expect(claims.sub).toBe('alice');
  });

  it('refuses a token for another audience', async () => {
    expect(await refusal((nonce) => ({ ...good(nonce), aud: 'another-client' }))).toMatch(/"aud"/);
  });

  it('refuses an expired token', async () => {
    expect(await refusal((nonce) => ({ ...good(nonce), iat: now() - 3600, exp: now() - 600 }))).toMatch(/"exp"/);
  });

  it("refuses a token with another sign-in's nonce", async () => {
    expect(await refusal((nonce) => ({ ...good(nonce), nonce: `${nonce}-other` }))).toMatch(/"nonce"/);
  });

  it('refuses a token from another issuer', async () => {
    expect(await refusal((nonce) => ({ ...good(nonce), iss: 'https://elsewhere.example' }))).toMatch(/"iss"/);
  });
});
