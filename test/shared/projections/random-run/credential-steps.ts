import { claimCredential, decideCredential, rotateKey } from '../../../../src/credential/commands';
import { loadStream } from '../../../../src/shared/commands/handle';
import { registerMember } from '../../../../src/member/register';
import {
  CredentialCommand,
  credentialDecider,
  CredentialState,
  CredentialStatus,
  credentialStream,
} from '../../../../src/credential/decider';
import { CredentialEvent } from '../../../../src/credential/events';
import { ScopeStatus } from '../../../../src/credential/scope-lifecycle';
import { fold } from '../../../../src/shared/domain/decider';
import { SCOPE_NAMES } from '../../../../src/credential/scopes';
import { Draw, hasher, Member } from './draw';

/** The members' registrations and their credentials' steps in a random run. */

const CREDENTIAL_STEPS = [
  'apply',
  'approve',
  'reject',
  'claim',
  'rotate',
  'revoke',
  'request',
  'approveScope',
  'rejectScope',
  'revokeScope',
] as const;
type CredentialStep = (typeof CREDENTIAL_STEPS)[number];
type CommandStep = Exclude<CredentialStep, 'claim' | 'rotate'>;

/** The steps a credential in each status accepts (twice: more likely). */
const STEPS_ALLOWED: Record<CredentialStatus, CredentialStep[]> = {
  none: ['apply'],
  pending: ['approve', 'approve', 'reject'],
  approved: ['claim'],
  rejected: ['apply'],
  active: ['request', 'request', 'approveScope', 'approveScope', 'rejectScope', 'revokeScope', 'rotate', 'revoke'],
  revoked: ['apply'],
};

export async function register(d: Draw): Promise<void> {
  const { stores, members, chance, pick, random, ctx } = d;
  // Some registrations reuse a name in another case: username_taken.
  const taken = members.length > 0 && chance(0.15) ? pick(members).username.toUpperCase() : null;
  const username = taken ?? `dev${members.length + 1}x${Math.floor(random() * 1e6)}`;
  const registered = await registerMember(
    stores.events,
    hasher,
    { username, password: 'secret1', email: `${username}@example.com` },
    ctx(),
  );
  members.push({ member_id: registered.member_id, username: registered.username });
}

/**
 * Mostly a step the credential's current state allows, so that runs reach active credentials,
 * scopes and rotations; otherwise any step, which the domain usually refuses.
 */
export async function credential(d: Draw, member: Member): Promise<void> {
  const { stores, chance, pick, ctx } = d;
  const { member_id } = member;
  const state = fold(credentialDecider, await loadStream<CredentialEvent>(stores.events, credentialStream(member_id)));
  const kind = chance(0.75) ? pick(STEPS_ALLOWED[state.status]) : pick(CREDENTIAL_STEPS);
  if (kind === 'claim') await claimCredential(stores.events, member_id, ctx());
  // -1 is an invalid grace period.
  else if (kind === 'rotate') await rotateKey(stores.events, member_id, pick([0, 0, 60, 86_400 * 30, -1]), ctx());
  else await decideCredential(stores.events, credentialCommand(d, kind, member, state), ctx());
}

function credentialCommand(
  { chance, pick, anyScope, reason }: Draw,
  kind: CommandStep,
  { member_id, username }: Member,
  state: CredentialState,
): CredentialCommand {
  // Mostly a scope in the status the command needs, when there is one.
  const scopeIn = (status: ScopeStatus) => {
    const found = SCOPE_NAMES.filter((name) => state.scopes[name] === status);
    return found.length > 0 && chance(0.9) ? pick(found) : anyScope();
  };
  switch (kind) {
    case 'apply':
      return { type: 'ApplyCredential', data: { member_id, username, now: new Date().toISOString() } };
    case 'approve':
      return { type: 'ApproveCredential', data: { member_id, expires_at: null, now: new Date().toISOString() } };
    case 'reject':
      return { type: 'RejectCredential', data: { member_id, reason: reason() } };
    case 'revoke':
      return { type: 'RevokeCredential', data: { member_id, reason: reason() } };
    case 'request':
      return {
        type: 'RequestScopes',
        data: { member_id, scopes: chance(0.5) ? [anyScope()] : [anyScope(), anyScope()], reason: reason() },
      };
    case 'approveScope':
      return { type: 'ApproveScope', data: { member_id, scope: scopeIn('pending') } };
    case 'rejectScope':
      return { type: 'RejectScope', data: { member_id, scope: scopeIn('pending'), reason: reason() } };
    case 'revokeScope':
      return { type: 'RevokeScope', data: { member_id, scope: scopeIn('approved'), reason: reason() } };
  }
}
