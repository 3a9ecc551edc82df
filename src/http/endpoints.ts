import Router from '@koa/router';
import { Middleware } from 'koa';
import { Permission } from '../domain/permissions';
import { ScopeName } from '../domain/scopes';
import { AppState } from './context';
import { requireCsrf } from './session';

/** Who may call an endpoint (specification §5). */
export type Caller =
  | { kind: 'anyone' }
  | { kind: 'member' }
  | { kind: 'admin'; permission?: Permission }
  | { kind: 'partner'; scope: ScopeName };

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT';
  /** Koa path under /api/v1, with :parameters. */
  path: string;
  caller: Caller;
  handler: Middleware<AppState>;
}

export interface Guards {
  member: Middleware<AppState>;
  admin(permission?: Permission): Middleware<AppState>;
  partner(scope: ScopeName): Middleware<AppState>;
}

/**
 * Mounts endpoints with the checks their declaration implies, so a route cannot forget one:
 * every write checks the CSRF token first, then the caller's identity and permission or scope.
 */
export function mountEndpoints(router: Router<AppState>, endpoints: Endpoint[], guards: Guards): void {
  for (const { method, path, caller, handler } of endpoints) {
    const checks: Middleware<AppState>[] = method === 'GET' ? [] : [requireCsrf];
    if (caller.kind === 'member') checks.push(guards.member);
    if (caller.kind === 'admin') checks.push(guards.admin(caller.permission));
    if (caller.kind === 'partner') checks.push(guards.partner(caller.scope));
    router.register(path, [method], [...checks, handler]);
  }
}
