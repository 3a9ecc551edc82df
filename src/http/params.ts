import { isScope } from '../domain/scopes';
import { AppContext } from './context';
import { HttpError } from './envelope';

const MEMBER_ID = /^[1-9][0-9]{0,14}$/;

/** A path parameter that breaks its pattern is 422 (DESIGN §4), naming the parameter. */
function invalid(name: string, rule: string): never {
  throw new HttpError(422, 'invalid_path_parameter', `${name} ${rule}`, [{ path: name, message: rule }]);
}

function paramsOf(ctx: AppContext): Record<string, string> {
  return (ctx as AppContext & { params?: Record<string, string> }).params ?? {};
}

export function memberIdParam(ctx: AppContext): number {
  const value = paramsOf(ctx).member_id ?? '';
  if (!MEMBER_ID.test(value)) invalid('member_id', 'must be a positive integer');
  return Number(value);
}

export function scopeParam(ctx: AppContext): string {
  const value = paramsOf(ctx).scope ?? '';
  if (!isScope(value)) invalid('scope', 'is not a registered scope: GET /developer/scopes lists them');
  return value;
}
