import { z } from 'zod';
import { AppContext } from '../shared/http/context';
import { endpoint, Endpoint, LoginRealm, Refusal } from '../shared/http/endpoints';
import { wrongPassword } from '../shared/http/schemas';
import { loginSchema } from './fields';
import { passwordWorkBusy } from './password-work';

const PATHS: Record<LoginRealm, string> = { member: '/developer/login', admin: '/admin/login' };

/**
 * A login: its body, its refusals and its failure limit go together, for members and
 * administrators alike; `logIn` checks the password and puts the identity into the session.
 */
export function loginEndpoint<R extends z.ZodType>(
  realm: LoginRealm,
  spec: {
    summary: string;
    response: R;
    refusals?: Refusal[];
    logIn(ctx: AppContext, username: string, password: string): Promise<z.input<R>>;
  },
): Endpoint {
  return endpoint({
    method: 'POST',
    path: PATHS[realm],
    caller: { kind: 'anyone' },
    summary: spec.summary,
    body: loginSchema,
    response: spec.response,
    refusals: [wrongPassword, passwordWorkBusy, ...(spec.refusals ?? [])],
    login: realm,
    movesSession: true,
    handler: async (ctx, { body: { username, password } }) => ({
      data: await spec.logIn(ctx, username, password),
      message: 'logged in',
    }),
  });
}
