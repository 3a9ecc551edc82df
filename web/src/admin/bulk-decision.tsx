import type { ComponentChildren } from 'preact';
import type { Answer, Refusal } from '../api/client';
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

/**
 * One decision sent for each selected row in turn, said in one notice: how many passed, and each
 * refusal by name. A reason the service refuses is refused for all: it stays in its box.
 */
export function sendEach<T>(
  chosen: T[],
  nameOf: (row: T) => string,
  noun: string,
  decided: (answer: { ok: true; message: string }) => Refusal | null,
) {
  return async (send: (row: T) => Promise<Answer<unknown>>, verb: string): Promise<Refusal | null> => {
    const refused: string[] = [];
    for (const row of chosen) {
      const answer = await send(row);
      if (answer.ok) continue;
      if (answer.refusal.error === 'validation_failed' && refused.length === 0 && row === chosen[0])
        return answer.refusal;
      refused.push(`${nameOf(row)}: ${answer.refusal.message}`);
    }
    const passed = chosen.length - refused.length;
    return decided({
      ok: true,
      message: `${verb} ${passed} of ${selected(chosen.length, noun)}.${refused.length ? ` Refused: ${refused.join('; ')}.` : ''}`,
    });
  };
}
