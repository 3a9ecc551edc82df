import { z } from 'zod';
import { decideCredential } from '../commands';
import { CredentialCommand } from '../decider';
import {
  assertWithinLifetime,
  expiresAtFor,
  expiryField,
  expiryFieldsWithin,
  expiryTooFar,
  NOT_BOTH,
  notBoth,
} from '../expiry';
import { credentialReads } from '../reads';
import { applicationSchema, credentialSchema, credentialView } from '../views';
import { reasonSchema } from '../../shared/domain/reason';
import { ReadModels } from '../../shared/projections/read-models';
import { asMember, asReviewer, credentialAfter, ReviewerDeps, unknownMember } from './actors';
import { endpoint, Endpoint, Refusal } from '../../shared/http/endpoints';
import { memberParams } from '../../shared/http/params';
import { concurrentChange } from '../../shared/http/schemas';
import { decideThenRead } from '../../shared/http/read-your-writes';
import { emptyBody } from '../../shared/http/validate';

export interface ExtensionDeps extends ReviewerDeps {
  readModels: ReadModels;
  /** MAX_KEY_LIFETIME_DAYS: how far ahead an extension may move the expiry. */
  maxKeyLifetimeDays: number;
}

const requestBodyWithin = (maxDays: number) =>
  z
    .strictObject({ ...expiryFieldsWithin(maxDays), reason: reasonSchema })
    .refine(notBoth, { error: NOT_BOTH })
    .refine((body) => body.expires_at !== undefined || body.expires_in_days !== undefined, {
      error: 'give expires_at or expires_in_days',
    })
    // Exactly one of the two, for a client generated from the contract.
    .meta({ oneOf: [{ required: ['expires_at'] }, { required: ['expires_in_days'] }] });

const notNow: Refusal = {
  status: 422,
  reasons: [
    'credential_not_active',
    'credential_never_expires',
    'extension_already_requested',
    'extension_not_later',
    'extension_not_requested',
  ],
  when: 'the credential is not active, never expires, or has no extension in the state this needs; data.error says which',
};

/** A member asks for a later expiry; an administrator approves or rejects it, with a reason. */
export function extensionEndpoints(deps: ExtensionDeps): Endpoint[] {
  const reads = credentialReads(deps.readModels);
  const answer = credentialAfter(deps.readModels);

  return [
    endpoint({
      method: 'POST',
      path: '/developer/extension',
      caller: { kind: 'member' },
      summary: "Ask for a later expiry of the member's key, with the reason; an administrator decides",
      body: requestBodyWithin(deps.maxKeyLifetimeDays),
      response: credentialSchema,
      refusals: [notNow, expiryTooFar, concurrentChange],
      handler: async (ctx, { body }) => {
        const { member, context } = asMember(ctx);
        const now = new Date();
        const expires_at = expiresAtFor(body, now, null)!;
        assertWithinLifetime(expires_at, now, deps.maxKeyLifetimeDays, expiryField(body));
        const command: CredentialCommand = {
          type: 'RequestExtension',
          data: { member_id: member.id, expires_at, reason: body.reason, now: now.toISOString() },
        };
        const decide = () => decideCredential(deps.events, command, context);
        return decideThenRead(ctx, decide, async ({ position }) => ({
          data: credentialView(await reads.credential(member.id, position)),
          message: 'requested: an administrator will decide',
        }));
      },
    }),
    endpoint({
      method: 'POST',
      path: '/credentials/:member_id/extension/approve',
      caller: { kind: 'admin', permission: 'credential.review' },
      summary: "Approve a member's request for a later expiry",
      params: memberParams,
      body: emptyBody,
      response: applicationSchema,
      refusals: [unknownMember, notNow, concurrentChange],
      handler: async (ctx, { params: { member_id } }) =>
        decideThenRead(
          ctx,
          asReviewer(deps, ctx, { type: 'ApproveExtension', data: { member_id } }),
          answer(member_id, (c) => `extension approved: the key now expires at ${String(c.expires_at)}`),
        ),
    }),
    endpoint({
      method: 'POST',
      path: '/credentials/:member_id/extension/reject',
      caller: { kind: 'admin', permission: 'credential.review' },
      summary: "Reject a member's request for a later expiry, with the reason",
      params: memberParams,
      body: z.strictObject({ reason: reasonSchema }),
      response: applicationSchema,
      refusals: [unknownMember, notNow, concurrentChange],
      handler: async (ctx, { params: { member_id }, body: { reason } }) =>
        decideThenRead(
          ctx,
          asReviewer(deps, ctx, { type: 'RejectExtension', data: { member_id, reason } }, reason),
          answer(member_id, 'extension rejected: the key keeps its expiry'),
        ),
    }),
  ];
}
