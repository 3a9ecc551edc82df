import { apiKeyDigest, isWellFormedApiKey } from '../api-key';
import { decideCredential } from '../commands';
import { IssuedKeyDocument } from '../projections/issued-keys';
import { EventStore } from '../../stores/ports';
import { CommandContext } from '../../shared/commands/context';
import { LeakAction } from './decide';

/** Where a key was found, as the reporter tells it. */
export interface Finding {
  token: string;
  url: string;
  source: string;
  note: string | null;
}

export type Label = 'true_positive' | 'false_positive';

/** What a report's answer says of one finding: never the key, its SHA-256 (GitHub's `token_hash`). */
export interface Judgement {
  token_hash: string;
  label: Label;
  member_id: number | null;
  /** Whether this report was recorded: the same key found at the same place is recorded once. */
  recorded: boolean;
  /** Whether this report made the open API refuse the key. */
  quarantined: boolean;
}

export interface LeakJudge {
  events: EventStore;
  action: LeakAction;
  issuedKey(digest: string): Promise<IssuedKeyDocument | null>;
}

/**
 * One finding judged: a string not in our key format, or whose checksum fails, is a false positive
 * without a lookup; one in our format is a key this service issued, or a false positive. An issued
 * key's report is recorded on its credential, whoever holds it now; the key itself goes no further
 * than its digest.
 */
export async function judgeFinding(judge: LeakJudge, finding: Finding, ctx: CommandContext): Promise<Judgement> {
  const token_hash = apiKeyDigest(finding.token);
  const falsePositive: Judgement = {
    token_hash,
    label: 'false_positive',
    member_id: null,
    recorded: false,
    quarantined: false,
  };
  if (!isWellFormedApiKey(finding.token)) return falsePositive;
  const issued = await judge.issuedKey(token_hash);
  if (!issued) return falsePositive;
  const { events } = await decideCredential(
    judge.events,
    {
      type: 'ReportKeyLeak',
      data: {
        member_id: issued.member_id,
        apiid: issued.apiid,
        key_digest: token_hash,
        url: finding.url,
        source: finding.source,
        note: finding.note,
        action: judge.action,
        now: ctx.now.toISOString(),
      },
    },
    ctx,
  );
  const report = events[0];
  const quarantined = report?.type === 'KeyLeakReported' && report.data.quarantined;
  return {
    token_hash,
    label: 'true_positive',
    member_id: issued.member_id,
    recorded: report !== undefined,
    quarantined,
  };
}
