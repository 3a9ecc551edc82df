import type { Refusal } from '../api/client';
import { ReasonAction } from '../ui/reason-action';
import { ApproveWithExpiry, type ApprovalBody } from './approve-expiry';

interface BulkProps {
  count: number;
  defaultDays: number | null;
  onApprove: (body: ApprovalBody) => void;
  onReject: (reason: string) => Promise<Refusal | null>;
}

/** One decision for every selected row: approve with one expiry, or reject with one reason. */
export function BulkDecision({ count, defaultDays, onApprove, onReject }: BulkProps) {
  if (count === 0) return null;
  const subject = `${count} selected application${count === 1 ? '' : 's'}`;
  return (
    <section class="bulk actions" aria-label="Decide the selected applications">
      <p>{subject}:</p>
      <ApproveWithExpiry id="selected" subject={subject} defaultDays={defaultDays} onApprove={onApprove} />
      <ReasonAction id="reject-selected" label="Reject" subject={subject} onSend={onReject} />
    </section>
  );
}
