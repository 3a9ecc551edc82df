import { z } from 'zod';
import { endpoint, Endpoint } from '../../shared/http/endpoints';
import type { AppContext } from '../../shared/http/context';
import { adminOf, memberOf } from '../../shared/http/guards';
import { commandContext } from '../../shared/http/command-context';
import { rememberPosition } from '../../shared/http/session';
import { secondFactorEnrolled } from '../../shared/http/pending-sign-in';
import { concurrentChange } from '../../shared/http/schemas';
import { EventStore } from '../../stores/ports';
import { refusedAs } from '../role-group-endpoints';
import type { PasskeySide } from './events';
import {
  ceremonyOptionsSchema,
  registrationOptions,
  registrationResponseSchema,
  RelyingParty,
  takeChallenge,
  verifiedRegistration,
} from './ceremony';
import { addPasskey, handleOf, listPasskeys, passkeysOf, removePasskey } from './passkeys';

export interface PasskeyDeps {
  events: EventStore;
  /** PUBLIC_URL's relying party: the RP ID and the origin passkeys are made for. */
  relyingParty: RelyingParty;
}

export const passkeySchema = z
  .object({ id: z.uuid(), name: z.string() })
  .meta({ id: 'Passkey', description: 'A passkey of this account, by the name its owner gave it' });

const addBody = z.strictObject({
  name: z.string().trim().min(1).max(64).meta({ description: 'What its owner calls it, e.g. "work laptop"' }),
  response: registrationResponseSchema,
});

const passkeyParams = z.object({ id: z.uuid().meta({ description: 'The passkey' }) });

/** Each side's path, caller and signed-in account. */
const SIDES = {
  member: { prefix: '/developer/passkeys', caller: { kind: 'member' }, whoami: memberOf },
  admin: { prefix: '/admin/passkeys', caller: { kind: 'admin' }, whoami: adminOf },
} as const;

const notVerified = {
  status: 422,
  reasons: ['passkey_not_verified'],
  when: "passkey_not_verified: the authenticator's answer does not match the challenge, this service's origin or its RP ID",
} as const;
const challengeMissing = {
  status: 409,
  reasons: ['passkey_challenge_missing'],
  when: 'passkey_challenge_missing: no options were asked for in this session, or they were answered already or expired',
} as const;

/**
 * A member's or an administrator's own passkeys (docs/accounts.md): listed, added through a
 * registration ceremony whose challenge waits in the session, and removed. Only the owner, signed
 * in, reaches them: the events' actor is always the account itself.
 */
export function enrolmentEndpoints(deps: PasskeyDeps, side: PasskeySide): Endpoint[] {
  const { prefix, caller, whoami } = SIDES[side];
  const accountOf = (ctx: AppContext) => ({ side, id: whoami(ctx).id });
  const asOwner = (ctx: AppContext) => commandContext(ctx, { kind: side, id: whoami(ctx).id });
  const purpose = `add-${side}-passkey`;
  return [
    endpoint({
      method: 'GET',
      path: prefix,
      caller,
      summary: "This account's passkeys, by name",
      enrolsSecondFactor: true,
      response: z.array(passkeySchema),
      handler: async (ctx) => ({ data: await listPasskeys(deps.events, accountOf(ctx)) }),
    }),
    endpoint({
      method: 'POST',
      path: `${prefix}/options`,
      caller,
      summary:
        "Begin adding a passkey: the options for the browser's startRegistration, whose challenge this session keeps",
      response: ceremonyOptionsSchema,
      handler: async (ctx) => {
        const account = accountOf(ctx);
        const { passkeys } = await passkeysOf(deps.events, account);
        const options = await registrationOptions(ctx, deps.relyingParty, purpose, {
          handle: handleOf(account),
          username: whoami(ctx).username,
          credential_ids: passkeys.map((p) => p.credential_id),
        });
        return { data: options, message: 'sign these options with the authenticator, then POST the answer' };
      },
    }),
    endpoint({
      method: 'POST',
      path: prefix,
      caller,
      summary: "Add a passkey: the authenticator's answer to this session's options, checked and kept under a name",
      enrolsSecondFactor: true,
      body: addBody,
      response: passkeySchema,
      refusals: [
        notVerified,
        challengeMissing,
        {
          status: 409,
          reasons: ['passkey_exists'],
          when: 'passkey_exists: this authenticator already holds a passkey of this account',
        },
        {
          status: 422,
          reasons: ['too_many_passkeys'],
          when: 'too_many_passkeys: the account holds 20 passkeys already',
        },
        concurrentChange,
      ],
      handler: async (ctx, { body }) => {
        const challenge = takeChallenge(ctx, purpose, `${prefix}/options`);
        const credential = await verifiedRegistration(deps.relyingParty, challenge, body.response);
        const added = await refusedAs({ passkey_exists: 409 }, () =>
          addPasskey(deps.events, accountOf(ctx), { name: body.name, ...credential }, asOwner(ctx)),
        );
        rememberPosition(ctx, added.position);
        // A passkey is a second factor: REQUIRE_SECOND_FACTOR's restriction on this session ends.
        secondFactorEnrolled(ctx, side);
        return { data: { id: added.id, name: added.name }, message: `passkey "${added.name}" added` };
      },
    }),
    endpoint({
      method: 'DELETE',
      path: `${prefix}/:id`,
      caller,
      summary: 'Remove a passkey of this account: it signs nothing in any more',
      params: passkeyParams,
      response: z.null(),
      refusals: [
        { status: 404, reasons: ['passkey_not_found'], when: 'passkey_not_found: this account has no such passkey' },
        concurrentChange,
      ],
      handler: async (ctx, { params }) => {
        const removed = await refusedAs({ passkey_not_found: 404 }, () =>
          removePasskey(deps.events, accountOf(ctx), params.id, asOwner(ctx)),
        );
        rememberPosition(ctx, removed.position);
        return { data: null, message: 'passkey removed' };
      },
    }),
  ];
}
