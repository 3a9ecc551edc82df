import { z } from 'zod';
import { DomainError } from '../../shared/domain/decider';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import { AppContext } from '../../shared/http/context';
import { logIntoSession, rememberPosition, sessionOf } from '../../shared/http/session';
import { commandContext } from '../../shared/http/command-context';
import { EventStore } from '../../stores/ports';
import { recordSignIn } from '../access-log';
import { PendingSignIn, Provider, providerOf } from './provider';
import { SsoSettings } from './settings';
import { signInFromClaims } from './sign-in';
import { refusalPage } from './page';

export interface SsoDeps {
  events: EventStore;
  /** OIDC_* (./settings.ts); null: single sign-on is off. */
  sso: SsoSettings | null;
}

const PENDING = 'sso_pending';
const CONSOLE = '/ui/';

const NOT_CONFIGURED = [
  'Single sign-on is off',
  'This service has no identity provider configured: sign in with your password, or ask the operator to set OIDC_ISSUER_URL.',
] as const;

/** What the provider may add to the redirect back (RFC 6749 §4.1.2, OpenID Connect Core, RFC 9207). */
const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  iss: z.string().max(2048).optional(),
  session_state: z.string().max(1024).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** openid-client's message, and the check under it (its `cause`: which parameter or claim was wrong). */
function whyRefused(err: unknown): string {
  const { message, cause } = err as Error;
  return cause instanceof Error ? `${message} (${cause.message})` : message;
}

function refuse(ctx: AppContext, status: number, title: string, why: string): void {
  ctx.status = status;
  ctx.type = 'text/html';
  ctx.body = refusalPage(title, why);
}

/** The sign-in in progress, taken out of the session: a callback is answered once per sign-in. */
function takePending(ctx: AppContext): PendingSignIn | null {
  const session = sessionOf(ctx) as unknown as Record<string, unknown>;
  const pending = session[PENDING] as PendingSignIn | undefined;
  delete session[PENDING];
  return pending ?? null;
}

async function callback(ctx: AppContext, deps: SsoDeps, provider: Provider): Promise<void> {
  const pending = takePending(ctx);
  if (!pending) {
    return refuse(
      ctx,
      401,
      'Sign-in not started here',
      'This browser session started no single sign-on, or its callback was already answered: start again from the console.',
    );
  }
  let verified: Awaited<ReturnType<Provider['finish']>>;
  try {
    verified = await provider.finish(ctx.querystring, pending);
  } catch (err) {
    // openid-client says which check failed (state, nonce, audience, expiry, signature, a spent code).
    return refuse(
      ctx,
      401,
      'Single sign-on refused',
      `The identity provider's answer did not pass its checks: ${whyRefused(err)}. Start again from the console.`,
    );
  }
  const sso = deps.sso!;
  try {
    const ctxSso = commandContext(ctx, { kind: 'sso', id: String(verified.claims.sub) });
    const admin = await signInFromClaims(deps.events, sso, verified.issuer, verified.claims, ctxSso);
    const { position: _position, ...identity } = admin;
    await logIntoSession(ctx, { admin: identity });
    const signedIn = await recordSignIn(
      deps.events,
      { admin_id: admin.id, address: ctx.ip },
      commandContext(ctx, { kind: 'admin', id: admin.id }),
    );
    rememberPosition(ctx, signedIn);
    ctx.redirect(CONSOLE);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return refuse(ctx, 403, 'Not an administrator here', err.message);
  }
}

/** Single sign-on for administrators (docs/administrators.md): off, every route but the status answers 404. */
export function ssoEndpoints(deps: SsoDeps): Endpoint[] {
  const provider = deps.sso ? providerOf(deps.sso) : null;
  return [
    endpoint({
      method: 'GET',
      path: '/admin/sso',
      caller: { kind: 'anyone' },
      summary:
        "Whether administrators may sign in through single sign-on, under which name the console offers it, and whether it's the only way",
      response: z.object({
        enabled: z.boolean(),
        display_name: z.string().nullable(),
        password_sign_in: z.enum(['everyone', 'super_only']),
      }),
      handler: () => ({
        data: {
          enabled: Boolean(deps.sso),
          display_name: deps.sso?.displayName ?? null,
          password_sign_in: deps.sso?.only ? ('super_only' as const) : ('everyone' as const),
        },
      }),
    }),
    endpoint({
      method: 'GET',
      path: '/admin/sso/login',
      caller: { kind: 'anyone' },
      summary:
        'Sends the browser to the identity provider (302): authorization code with PKCE, a state and a nonce kept in the session',
      raw: 'text/html',
      redirects: true,
      response: z.string(),
      refusals: [
        { status: 404, reasons: ['sso_not_configured'], when: 'sso_not_configured: OIDC_ISSUER_URL is unset' },
        {
          status: 503,
          reasons: ['sso_provider_unreachable'],
          when: "sso_provider_unreachable: the provider's discovery document could not be read",
        },
      ],
      handler: async (ctx) => {
        if (!provider) return refuse(ctx, 404, ...NOT_CONFIGURED);
        const begun = await provider.begin().catch((err: unknown) => {
          // The provider's discovery document could not be read: down, or OIDC_ISSUER_URL is wrong.
          refuse(
            ctx,
            503,
            'Identity provider unreachable',
            `The identity provider could not be asked how to sign in (${whyRefused(err)}): try again later, or sign in with a password.`,
          );
          return null;
        });
        if (!begun) return;
        (sessionOf(ctx) as unknown as Record<string, unknown>)[PENDING] = begun.pending;
        ctx.redirect(begun.url);
      },
    }),
    endpoint({
      method: 'GET',
      path: '/admin/sso/callback',
      caller: { kind: 'anyone' },
      summary:
        'Where the provider sends the browser back: signs the administrator in (a new session id and CSRF token) and redirects (302) to the console',
      description:
        'The administrator is created at its first sign-in and placed in the role group its claims map to at each one. A refusal is an HTML page that says why: 401 no sign-in in progress in this session or the answer failed its checks, 403 no mapping covers the person.',
      raw: 'text/html',
      query: callbackQuery,
      redirects: true,
      response: z.string(),
      movesSession: true,
      refusals: [
        {
          status: 401,
          reasons: ['sso_not_started'],
          when: 'sso_not_started: this session started no sign-in, or its callback was answered already',
        },
        {
          status: 401,
          reasons: ['sso_refused'],
          when: "sso_refused: the provider's answer failed openid-client's checks (state, nonce, ID token, code)",
        },
        {
          status: 403,
          reasons: ['sso_not_mapped'],
          when: 'sso_not_mapped: no OIDC_ROLE_GROUPS mapping or OIDC_SUPER_GROUP covers the claims',
        },
        { status: 404, reasons: ['sso_not_configured'], when: 'sso_not_configured: OIDC_ISSUER_URL is unset' },
      ],
      handler: async (ctx) => {
        if (!provider) return refuse(ctx, 404, ...NOT_CONFIGURED);
        await callback(ctx, deps, provider);
      },
    }),
  ];
}
