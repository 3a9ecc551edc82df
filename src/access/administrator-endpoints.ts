import { z } from 'zod';
import { createInvited, InvitationDeps } from './invitation';
import { resetAdminPassword, setAdminEnabled } from './admin-accounts';
import { recordSignOut } from './access-log';
import { oneTimePassword, USERNAME_PATTERN } from '../member';
import { adminsProjection, AdminDocument } from './projections/admins';
import { administratorParams } from './params';
import { AccessDeps, asAdmin, grantorOf, manageAccess, notHeld, refusedAs } from './role-group-endpoints';
import { administratorSchema, createdAdministratorSchema, passwordResetSchema } from './schemas';
import type { SessionStore } from '../stores/ports';
import { expectWritten } from '../shared/projections/read-models';
import { endpoint, Endpoint } from '../shared/http/endpoints';
import { HttpError } from '../shared/http/envelope';
import { concurrentChange } from '../shared/http/schemas';
import { pageOf, paginate, wholeListQuery } from '../shared/http/pagination';
import { decideThenRead } from '../shared/http/read-your-writes';
import { emptyBody } from '../shared/http/validate';

export interface AdministratorDeps extends AccessDeps, InvitationDeps {
  /** Where a disable, a password reset or change ends the administrator's sessions. */
  sessions: Pick<SessionStore, 'endAllOf'>;
}

const createBody = z.strictObject({
  // Plain strings to the validation, so that createAdmin answers its own reasons (invalid_username,
  // invalid_email); the members' rules it checks, to a client generated from the contract.
  username: z.string().meta({
    description: 'A letter, then 2 to 31 letters, digits, _ . or -',
    override: { pattern: USERNAME_PATTERN.source },
  }),
  role_group_id: z.int().min(1),
  email: z
    .string()
    .meta({
      override: {
        anyOf: [{ format: 'email', pattern: z.regexes.email.source, maxLength: 254 }, { pattern: '^\\s*$' }],
      },
    })
    .nullable()
    .optional()
    .meta({
      description:
        'Where the digest of new applications and scope requests goes: an e-mail address; an empty or blank string counts as not given',
    }),
});

const noAdmin = {
  status: 404,
  reasons: ['admin_not_found'],
  when: 'admin_not_found: there is no administrator with this id',
} as const;
const lastSuper = {
  status: 409,
  reasons: ['last_super_admin'],
  when: 'last_super_admin: the last enabled super administrator cannot be disabled',
} as const;
const taken = {
  status: 409,
  reasons: ['admin_username_taken'],
  when: 'admin_username_taken: another administrator has this username, or one that reads like it (UTS #39 confusables, case aside); the message names it',
} as const;
const mailNotSent = {
  status: 503,
  reasons: ['mail_not_sent'],
  when: 'mail_not_sent: the administrator is created, but the invitation could not be mailed: reset their password for a one-time password',
} as const;
const superOnly = {
  status: 403,
  reasons: ['super_admin_only'],
  when: 'super_admin_only: the administrator addressed is a super administrator, or was disabled by one, and only a super administrator may disable, enable or reset the password of one',
} as const;
const ownAccount = {
  status: 409,
  reasons: ['own_account'],
  when: "own_account: this is the caller's own account",
} as const;

/** How the deciders' refusals of who may address whom (./grantor.ts) are answered. */
const addressing = { own_account: 409, super_admin_only: 403, permission_not_held: 403 } as const;

/** Administrators from the console (docs/administrators.md): the same commands as `platform admin`. */
export function administratorEndpoints(deps: AdministratorDeps): Endpoint[] {
  const existing = async (admin_id: number): Promise<AdminDocument> => {
    const admin = await deps.readModels.latest(adminsProjection, String(admin_id));
    if (!admin)
      throw new HttpError(
        404,
        'admin_not_found',
        `there is no administrator ${admin_id}: GET /administrators lists them`,
      );
    return admin;
  };
  const adminAt = async (id: number, position: string | null) =>
    expectWritten(await deps.readModels.after(adminsProjection, String(id), position));
  const superIds = async () => (await deps.readModels.allLatest(adminsProjection, { is_super: true })).map((a) => a.id);

  return [
    endpoint({
      method: 'GET',
      path: '/administrators',
      caller: manageAccess,
      summary: 'Every administrator, enabled or not, without passwords, in the order of their ids',
      query: z.object(wholeListQuery),
      response: pageOf(administratorSchema),
      handler: async (_ctx, { query }) => ({
        data: paginate(await deps.readModels.allLatest(adminsProjection, {}), (admin) => [admin.id, ''], query),
      }),
    }),
    endpoint({
      method: 'POST',
      path: '/administrators',
      caller: manageAccess,
      summary:
        'Create an administrator in a role group: invited by mail when mail is configured and email is given, else a one-time password in the answer, shown this once',
      secretInAnswer: true,
      body: createBody,
      response: createdAdministratorSchema,
      refusals: [
        taken,
        notHeld,
        {
          status: 422,
          reasons: ['role_group_not_found', 'invalid_username', 'invalid_email'],
          when: 'role_id names no role group (role_group_not_found), or username or email breaks its rule (data.issues names it)',
        },
        mailNotSent,
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const password = oneTimePassword();
        const admin = {
          username: body.username,
          password,
          is_super: false,
          role_id: body.role_group_id,
          email: body.email ?? null,
        };
        return decideThenRead(
          ctx,
          async () => {
            const by = await grantorOf(ctx, deps);
            return refusedAs({ admin_username_taken: 409, permission_not_held: 403 }, () =>
              createInvited(deps, admin, by, asAdmin(ctx)),
            );
          },
          async ({ id, position, invitation_sent_to }) => ({
            data: {
              ...(await adminAt(id, position)),
              password: invitation_sent_to ? null : password,
              invitation_sent_to,
            },
            message: invitation_sent_to
              ? `administrator ${id} created: a link to choose their password was mailed to ${invitation_sent_to}`
              : `administrator ${id} created: hand over the one-time password now, it is not shown again`,
          }),
        );
      },
    }),
    ...(['enable', 'disable'] as const).map((verb) =>
      endpoint({
        method: 'POST',
        path: `/administrators/:admin_id/${verb}`,
        caller: manageAccess,
        summary:
          verb === 'enable'
            ? 'Enable an administrator again: they can log in'
            : 'Disable an administrator: refused at login, and every session of theirs ends at once',
        params: administratorParams,
        body: emptyBody,
        response: administratorSchema,
        refusals: [
          noAdmin,
          ownAccount,
          superOnly,
          notHeld,
          ...(verb === 'disable' ? [lastSuper] : []),
          { status: 422, reasons: [`admin_already_${verb}d`], when: `the administrator is ${verb}d already` },
          concurrentChange,
        ],
        handler: async (ctx, { params: { admin_id } }) => {
          const admin = await existing(admin_id);
          const supers = verb === 'disable' ? await superIds() : [];
          return decideThenRead(
            ctx,
            async () => {
              const standing = { super_ids: supers, by: await grantorOf(ctx, deps) };
              const decision = await refusedAs({ ...addressing, last_super_admin: 409 }, () =>
                setAdminEnabled(deps.events, admin, verb === 'enable', standing, asAdmin(ctx)),
              );
              if (verb !== 'disable') return decision;
              const sessions = await deps.sessions.endAllOf({ side: 'admin', id: admin_id });
              if (sessions === 0) return decision;
              return {
                position: await recordSignOut(deps.events, { admin_id, reason: 'disabled', sessions }, asAdmin(ctx)),
              };
            },
            async ({ position }) => ({
              data: await adminAt(admin_id, position),
              message: `administrator ${admin_id} ${verb}d`,
            }),
          );
        },
      }),
    ),
    endpoint({
      method: 'POST',
      path: '/administrators/:admin_id/password-reset',
      caller: manageAccess,
      summary: 'Give an administrator a one-time password, shown this once; every session of theirs ends',
      secretInAnswer: true,
      params: administratorParams,
      body: emptyBody,
      response: passwordResetSchema,
      refusals: [noAdmin, ownAccount, superOnly, notHeld, concurrentChange],
      handler: async (ctx, { params: { admin_id } }) => {
        const admin = await existing(admin_id);
        return decideThenRead(
          ctx,
          async () => {
            const by = await grantorOf(ctx, deps);
            const reset = await refusedAs(addressing, () =>
              resetAdminPassword(deps.events, deps.hasher, admin, by, asAdmin(ctx)),
            );
            await deps.sessions.endAllOf({ side: 'admin', id: admin_id });
            return reset;
          },
          async ({ password }) => ({
            data: { id: admin_id, password },
            message: 'password reset: hand over the one-time password now, it is not shown again',
          }),
        );
      },
    }),
  ];
}
