import type * as Client from 'openid-client' with { 'resolution-mode': 'import' };

// openid-client is an ES module: Node 20 requires it (require(esm)), as jest does once it compiled it
// (jest.config.js). Only once single sign-on is used: a service without it never loads the client.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const client = () => require('openid-client') as typeof Client;
import { isLoopback, SsoSettings } from './settings';

/** What a sign-in in progress keeps in the session until its callback: never sent to the browser but the state. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  code_verifier: string;
}

/**
 * The provider as openid-client knows it: discovered once, again after a failure (the provider
 * may have been down at the first sign-in). Plain http only for a loopback issuer (./settings.ts).
 */
export function providerOf(settings: SsoSettings) {
  let discovered: Promise<Client.Configuration> | null = null;
  const configuration = () => {
    discovered ??= client()
      .discovery(
        settings.issuer,
        settings.clientId,
        settings.clientSecret,
        undefined,
        isLoopback(settings.issuer) ? { execute: [client().allowInsecureRequests] } : undefined,
      )
      .catch((err: unknown) => {
        discovered = null;
        throw err;
      });
    return discovered;
  };
  return {
    /** Where to send the browser: authorization code with PKCE (S256), a state and a nonce. */
    async begin(): Promise<{ url: string; pending: PendingSignIn }> {
      const config = await configuration();
      const code_verifier = client().randomPKCECodeVerifier();
      const pending = { state: client().randomState(), nonce: client().randomNonce(), code_verifier };
      const url = client().buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUrl,
        scope: 'openid profile',
        code_challenge: await client().calculatePKCECodeChallenge(code_verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },
    /** The ID token's claims, once openid-client checked the state, the code, the nonce and the token (issuer, audience, expiry, signature). */
    async finish(
      callbackQuery: string,
      pending: PendingSignIn,
    ): Promise<{ issuer: string; claims: Record<string, unknown> }> {
      const config = await configuration();
      const url = new URL(settings.redirectUrl);
      url.search = callbackQuery;
      const tokens = await client().authorizationCodeGrant(config, url, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the provider answered no ID token');
      return { issuer: config.serverMetadata().issuer, claims: { ...claims } };
    },
  };
}

export type Provider = ReturnType<typeof providerOf>;
