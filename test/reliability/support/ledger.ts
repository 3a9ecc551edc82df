import { isDeepStrictEqual } from 'node:util';
import { RecordedEvent } from '../../../src/stores/ports';

/** An event an acknowledged write must have appended: its type and some of its data. */
export interface Expected {
  type: string;
  data: Record<string, unknown>;
}

/**
 * What a client knows about the writes it sent, by request id (the X-Request-Id the service
 * answers and stores in each event's metadata; for a write cut before an answer, only the
 * client's own is known): the acknowledged ones (2xx) with the events they must have appended,
 * the refused ones (4xx), which must have appended nothing, and the unknown ones, whose
 * connection died before an answer came (or a 503 came), which may or may not have landed.
 */
export class Ledger {
  private readonly acknowledged = new Map<string, Expected[]>();
  private readonly unknown = new Set<string>();
  private readonly refused = new Set<string>();
  private sent = 0;

  constructor(private readonly prefix: string) {}

  /** A request id of its own for the next write; a retry is a new write with a new id. */
  nextRequestId(): string {
    this.sent += 1;
    return `${this.prefix}-${this.sent}`;
  }

  acknowledge(requestId: string, expected: Expected[]): void {
    this.acknowledged.set(requestId, expected);
  }

  lost(requestId: string): void {
    this.unknown.add(requestId);
  }

  /** A 4xx: the service said no, so nothing may have been appended. */
  refuse(requestId: string): void {
    this.refused.add(requestId);
  }

  counts(): { acknowledged: number; refused: number; unknown: number } {
    return { acknowledged: this.acknowledged.size, refused: this.refused.size, unknown: this.unknown.size };
  }

  /** How many of the unknown writes did land: the kills really cut writes in flight. */
  unknownThatLanded(log: RecordedEvent[]): number {
    const landed = new Set(log.map((e) => e.metadata.request_id));
    return [...this.unknown].filter((id) => landed.has(id)).length;
  }

  /** Refused writes that appended something anyway. */
  refusedThatLanded(log: RecordedEvent[]): string[] {
    return [...new Set(log.map((e) => e.metadata.request_id).filter((id) => this.refused.has(id)))];
  }

  /**
   * Every acknowledged write is in the log exactly as it must be: each expected event once, and
   * nothing else under its request id. Answers what does not hold, one line per write.
   */
  missing(log: RecordedEvent[]): string[] {
    const byRequest = new Map<string, RecordedEvent[]>();
    for (const event of log) {
      const id = event.metadata.request_id;
      byRequest.set(id, [...(byRequest.get(id) ?? []), event]);
    }
    const problems: string[] = [];
    for (const [requestId, expected] of this.acknowledged) {
      const found = byRequest.get(requestId) ?? [];
      const matching = (e: Expected) =>
        found.filter((event) => event.type === e.type && includes(event.data, e.data)).length;
      // An event expected n times (a name's claim, one per look-alike key) is found exactly n times.
      const times = (e: Expected) =>
        expected.filter((x) => x.type === e.type && JSON.stringify(x.data) === JSON.stringify(e.data)).length;
      const wrong = expected.filter((e) => matching(e) !== times(e));
      if (wrong.length > 0 || found.length !== expected.length) {
        // Only the fields expected: the others hold password hashes and key digests.
        const fields = new Set(expected.flatMap((e) => Object.keys(e.data)));
        const shown = found.map(({ type, data }) => ({
          type,
          data: Object.fromEntries(Object.entries(data).filter(([k]) => fields.has(k))),
        }));
        problems.push(`${requestId}: expected ${describe(expected)}, the log holds ${describe(shown)}`);
      }
    }
    return problems;
  }
}

/** Events that appear more than once: the same type and data under the same request id. */
export function duplicates(log: RecordedEvent[]): string[] {
  const seen = new Map<string, number>();
  for (const event of log) {
    const key = JSON.stringify([event.metadata.request_id, event.type, event.data]);
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([key, count]) => `${count} times: ${key}`);
}

/** Values of `field` that more than one event of `type` holds, where the domain makes them unique. */
export function repeated(log: RecordedEvent[], type: string, field: string): unknown[] {
  const seen = new Set<unknown>();
  const twice = new Set<unknown>();
  for (const event of log) {
    if (event.type !== type) continue;
    const value = normalized(event.data[field]);
    if (seen.has(value)) twice.add(value);
    seen.add(value);
  }
  return [...twice];
}

function normalized(value: unknown): unknown {
  // Usernames are unique case-insensitively.
  return typeof value === 'string' ? value.toLowerCase() : value;
}

function includes(data: Record<string, unknown>, part: Record<string, unknown>): boolean {
  return Object.entries(part).every(([key, value]) => isDeepStrictEqual(data[key], value));
}

function describe(events: Expected[]): string {
  return events.length === 0 ? 'nothing' : events.map((e) => `${e.type} ${JSON.stringify(e.data)}`).join(', ');
}
