import { credentialDecider, CredentialCommand } from '../../src/credential/decider';
import { CredentialEvent } from '../../src/credential/events';
import { fold } from '../../src/shared/domain/decider';
import { given } from '../support/decider-spec';
import { credentialEvents } from './fixtures';

/** What the credential decider's tests share: the events of one member, a command of each type, the decisions they expect. */
export const member_id = 7;
export const APIID = 'ak_aaaaaaaaaaaaaaaaaaaa';
export const NEW_APIID = 'ak_bbbbbbbbbbbbbbbbbbbb';
export const KEY = 'a'.repeat(64);
export const NEW_KEY = 'b'.repeat(64);
export const NOW = '2025-03-01T10:00:00.000Z';

// Events, written once so that histories read like what the service would have appended.
export const events = credentialEvents(member_id);
export const applied = events.applied('alice');
export const approved = events.approved();
export const rejected = events.rejected('incomplete');
export const claimed = (apiid = APIID, key_digest = KEY) => events.claimed(apiid, key_digest);
export const revoked = events.revoked('abuse');
export const scopeRequested = (scope: string) => events.requested(scope, 'dashboard');
export const { scopeApproved } = events;
export const scopeRejected = (scope: string) => events.scopeRejected(scope, 'no');
export const scopeRevoked = (scope: string) => events.scopeRevoked(scope, 'over');

export const active = [applied, approved, claimed()];

export type CommandType = CredentialCommand['type'];
export type CommandOf<T extends CommandType> = Extract<CredentialCommand, { type: T }>;

/** One command of each type: a mapped type, so a new command fails to compile until it is listed. */
export const commands: { [T in CommandType]: CommandOf<T> } = {
  ApplyCredential: { type: 'ApplyCredential', data: { member_id, username: 'alice', now: NOW } },
  ApproveCredential: {
    type: 'ApproveCredential',
    data: { member_id, expires_at: null, now: '2026-11-23T00:00:00.000Z' },
  },
  RejectCredential: { type: 'RejectCredential', data: { member_id, reason: '  not a real company  ' } },
  ClaimCredential: { type: 'ClaimCredential', data: { member_id, apiid: NEW_APIID, key_digest: NEW_KEY, now: NOW } },
  RotateKey: { type: 'RotateKey', data: { member_id, key_digest: NEW_KEY, grace_seconds: 60, now: NOW } },
  RevokeCredential: { type: 'RevokeCredential', data: { member_id, reason: ' leaked key ' } },
  RequestScopes: {
    type: 'RequestScopes',
    data: { member_id, scopes: ['addons.read', 'member-groups.read'], reason: ' sync ' },
  },
  ApproveScope: { type: 'ApproveScope', data: { member_id, scope: 'addons.read' } },
  RejectScope: { type: 'RejectScope', data: { member_id, scope: 'addons.read', reason: 'no need' } },
  RevokeScope: { type: 'RevokeScope', data: { member_id, scope: 'addons.read', reason: 'no longer' } },
  NoteExpiry: { type: 'NoteExpiry', data: { member_id, now: NOW, reminder_days: [30, 7, 1] } },
  RequestExtension: {
    type: 'RequestExtension',
    data: { member_id, expires_at: '2099-01-01T00:00:00.000Z', reason: 'longer project', now: NOW },
  },
  ApproveExtension: { type: 'ApproveExtension', data: { member_id } },
  RejectExtension: { type: 'RejectExtension', data: { member_id, reason: 'no' } },
  ReportKeyLeak: {
    type: 'ReportKeyLeak',
    data: {
      member_id,
      apiid: APIID,
      key_digest: KEY,
      url: 'https://github.com/octo/repo/blob/1/.env',
      source: 'content',
      note: null,
      action: 'quarantine',
      now: NOW,
    },
  },
};

/** What each command appends where it is allowed, with the commands above. */
export const ALLOWED = {
  ApplyCredential: [applied],
  ApproveCredential: [approved],
  RejectCredential: [events.rejected('not a real company')],
  ClaimCredential: [claimed(NEW_APIID, NEW_KEY)],
  RotateKey: [events.rotated(APIID, NEW_KEY, KEY, '2025-03-01T10:01:00.000Z')],
  RevokeCredential: [events.revoked('leaked key')],
  RequestScopes: [events.requested('addons.read'), events.requested('member-groups.read')],
} satisfies Partial<Record<CommandType, CredentialEvent[]>>;

/** The report of the key KEY: recorded in every status, quarantined only while the open API accepts the key. */
export const leaked = (accepted: boolean): CredentialEvent[] => [
  {
    type: 'KeyLeakReported',
    data: {
      member_id,
      apiid: APIID,
      key_digest: KEY,
      key_fingerprint: KEY.slice(0, 8),
      url: 'https://github.com/octo/repo/blob/1/.env',
      source: 'content',
      note: null,
      accepted,
      quarantined: accepted,
    },
  },
];

/** Events, or the error code of a refusal. */
export type Outcome = CredentialEvent[] | string;
export function expectOutcome(history: CredentialEvent[], command: CredentialCommand, outcome: Outcome): void {
  const spec = given(credentialDecider, history).when(command);
  if (typeof outcome === 'string') spec.thenRefuses(outcome);
  else spec.then(outcome);
}

export const statusOf = (history: CredentialEvent[]) => fold(credentialDecider, history).status;
export const scopesOf = (history: CredentialEvent[]) => fold(credentialDecider, history).scopes;
export const decide = (history: CredentialEvent[], command: CredentialCommand) =>
  credentialDecider.decide(command, fold(credentialDecider, history));
