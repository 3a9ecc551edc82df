import type { ComponentChildren } from 'preact';
import type { Refusal } from '../api/client';
import { ReasonAction } from '../ui/reason-action';

interface BulkProps {
  count: number;
  /** What a row is: "application", "scope request". */
  noun: string;
  /** The approve control for what is selected, named after it ("3 selected applications"). */
  approve: (subject: string) => ComponentChildren;
  onReject: (reason: string) => Promise<Refusal | null>;
}

const selected = (count: number, noun: string) => `${count} selected ${noun}${count === 1 ? '' : 's'}`;

/** One decision for every selected row: approve (with one expiry where a key is approved), or reject with one reason. */
export function BulkDecision({ count, noun, approve, onReject }: BulkProps) {
  if (count === 0) return null;
  const subject = selected(count, noun);
  return (
    <section class="bulk actions" aria-label={`Decide the selected ${noun}s`}>
      <p>{subject}:</p>
      {approve(subject)}
      <ReasonAction id="reject-selected" label="Reject" subject={subject} onSend={onReject} />
    </section>
  );
}
