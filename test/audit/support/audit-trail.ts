import request from 'supertest';
import { createAdmin } from '../../../src/access/admins';
import { SHELL } from '../../../src/access/grantor';
import { argon2Hasher } from '../../../src/member/passwords';
import { logInAdmin, startPlatform, TestPlatform, uniqueUsername } from '../../support/platform';

export const API = '/api/v1';

export interface RoleGroupAdmin {
  client: request.Agent;
  token: string;
  id: number;
  username: string;
}

/**
 * A service with an auditor (seeded role group 2, Auditors, holding audit.read) and an operator
 * (group 1, Operators, without it), each logged in on a client of its own; filled in before the
 * file's tests, closed after them.
 */
export interface AuditTrail {
  t: TestPlatform;
  auditor: request.Agent;
  operator: RoleGroupAdmin;
  /** GET /credentials/{member_id}/history as the auditor, at `asOf` when given. */
  history(memberId: number, asOf?: string): request.Test;
}

export function auditTrail(): AuditTrail {
  const trail = {
    history: (memberId: number, asOf?: string) =>
      trail.auditor.get(`${API}/credentials/${memberId}/history`).query(asOf === undefined ? {} : { as_of: asOf }),
  } as AuditTrail;
  beforeAll(async () => {
    trail.t = await startPlatform();
    trail.auditor = (await adminInRoleGroup(trail.t, 2)).client;
    trail.operator = await adminInRoleGroup(trail.t, 1);
  });
  afterAll(() => trail.t.close());
  return trail;
}

async function adminInRoleGroup(t: TestPlatform, role_id: number): Promise<RoleGroupAdmin> {
  const account = { username: uniqueUsername('adm'), password: 'role-secret', is_super: false, role_id };
  const { id } = await createAdmin(t.platform.stores.events, argon2Hasher(), account, SHELL, {
    actor: { kind: 'cli', id: 'test' },
    requestId: 'test',
    now: new Date(),
  });
  const client = t.client();
  const token = await logInAdmin(client, { username: account.username, password: account.password });
  return { client, token, id, username: account.username };
}
