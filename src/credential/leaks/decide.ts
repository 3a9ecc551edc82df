import type { CredentialEvent } from '../events';
import type { KeyInGrace } from '../grace-period';
import { isAcceptedAt } from '../grace-period';
import { hasExpiredAt } from '../expiry';
import { keyFingerprint } from '../api-key';

/** What LEAKED_KEY_ACTION asks of a key still accepted when it is reported: refuse it at once, or only tell. */
export type LeakAction = 'quarantine' | 'notify';

export interface ReportKeyLeak {
  type: 'ReportKeyLeak';
  data: {
    member_id: number;
    /** The API id the key was issued under (the issued-keys read model's): the credential may have moved on since. */
    apiid: string;
    key_digest: string;
    url: string;
    source: string;
    note: string | null;
    action: LeakAction;
    now: string;
  };
}

/** What a leak report needs of the credential's state. */
export interface LeakState {
  status: string;
  key_digest: string | null;
  keys_in_grace: KeyInGrace[];
  expires_at: string | null;
  /** The reports already recorded, as `reportKey` names them. */
  leak_reports: string[];
}

/** A report is the same as another when it names the same key found at the same place. */
export const reportKey = (data: { key_digest: string; url: string }): string => `${data.key_digest} ${data.url}`;

/** Whether the open API accepted this key at `now`: the current key, or a rotated-away one in its grace period. */
function acceptedAt(state: LeakState, digest: string, now: string): boolean {
  if (state.status !== 'active' || hasExpiredAt(state.expires_at, now)) return false;
  if (state.key_digest === digest) return true;
  return state.keys_in_grace.some((key) => key.digest === digest && isAcceptedAt(key, now));
}

/**
 * A key found in public: recorded whether or not it is still accepted, quarantined when it is and
 * the action says so. The same key reported at the same place again records nothing, so that a
 * scanner's retry or a repeated post appends nothing.
 */
export function reportLeak({ data }: ReportKeyLeak, state: LeakState): CredentialEvent[] {
  if (state.leak_reports.includes(reportKey(data))) return [];
  const accepted = acceptedAt(state, data.key_digest, data.now);
  return [
    {
      type: 'KeyLeakReported',
      data: {
        member_id: data.member_id,
        apiid: data.apiid,
        key_digest: data.key_digest,
        key_fingerprint: keyFingerprint(data.key_digest),
        url: data.url,
        source: data.source,
        note: data.note,
        accepted,
        quarantined: accepted && data.action === 'quarantine',
      },
    },
  ];
}
