/**
 * The in-memory log behind the KurrentDB stand-in (./kurrentdb-stand-in.ts): streams with
 * revisions, one global order with positions, expected-revision checks, and a retry with the
 * same event ids answered as the first time. Checks client behaviour only, not a server's.
 */
import { ReadResp } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/streams_pb';
import { StreamIdentifier, UUID } from '@kurrent/kurrentdb-client/generated/kurrentdb/protocols/v1/shared_pb';

export type Expected = bigint | 'any' | 'no_stream' | 'stream_exists';

export interface Proposed {
  id: string;
  type: string;
  contentType: string;
  data: Buffer;
  metadata: Buffer;
}

export interface Stored extends Proposed {
  stream: string;
  revision: bigint;
  position: bigint;
  created: bigint;
}

export type AppendOutcome = { revision: bigint; position: bigint; written: Stored[] } | { actual: bigint | undefined };

/** Positions step by this, so that a position between two events exists and is refused. */
const STEP = 100n;

export class StandInLog {
  readonly #events: Stored[] = [];

  all(): Stored[] {
    return [...this.#events];
  }

  stream(name: string): Stored[] {
    return this.#events.filter((event) => event.stream === name);
  }

  /**
   * A stream's events as a read of it returns them: forwards from revision `from` (-1, its start), or
   * backwards from it.
   */
  readStream(name: string, from: bigint, backwards: boolean): Stored[] {
    const events = this.stream(name);
    return backwards
      ? events.filter((e) => e.revision <= from).reverse()
      : events.filter((e) => e.revision >= (from < 0n ? 0n : from));
  }

  /** $all as a read of it returns it: forwards from `position` or backwards from it, the whole log without one. */
  readAll(position: bigint | undefined, backwards: boolean): Stored[] {
    return backwards
      ? this.all()
          .filter((e) => position === undefined || e.position <= position)
          .reverse()
      : this.all().filter((e) => position === undefined || e.position >= position);
  }

  head(): bigint | undefined {
    return this.#events.at(-1)?.position;
  }

  beginsAt(position: bigint): boolean {
    return position === 0n || this.#events.some((event) => event.position === position);
  }

  append(stream: string, expected: Expected, proposed: Proposed[]): AppendOutcome {
    const existing = this.stream(stream);
    const actual = existing.at(-1)?.revision;
    const first = proposed[0];
    // A retry of events already written (same ids, in order) is answered as the first time.
    const retried = first ? existing.findIndex((event) => event.id === first.id) : -1;
    if (retried >= 0) {
      const written = existing.slice(retried, retried + proposed.length);
      const last = written.at(-1) as Stored;
      return { revision: last.revision, position: last.position, written: [] };
    }
    const fits =
      expected === 'any' ||
      (expected === 'no_stream' && actual === undefined) ||
      (expected === 'stream_exists' && actual !== undefined) ||
      (typeof expected === 'bigint' && expected === actual);
    if (!fits) return { actual };
    const written = proposed.map((event, index) => {
      const stored: Stored = {
        ...event,
        stream,
        revision: (actual ?? -1n) + 1n + BigInt(index),
        position: (BigInt(this.#events.length) + 1n) * STEP,
        created: BigInt(Date.now()) * 10_000n,
      };
      this.#events.push(stored);
      return stored;
    });
    const last = written.at(-1) as Stored;
    return { revision: last.revision, position: last.position, written };
  }
}

export function toRecordedEvent(event: Stored, uuids: 'string' | 'structured'): ReadResp.ReadEvent.RecordedEvent {
  const id = new UUID();
  if (uuids === 'string') id.setString(event.id);
  else {
    const hex = event.id.replace(/-/g, '');
    const signed = (part: string) => BigInt.asIntN(64, BigInt(`0x${part}`)).toString();
    id.setStructured(
      new UUID.Structured()
        .setMostSignificantBits(signed(hex.slice(0, 16)))
        .setLeastSignificantBits(signed(hex.slice(16))),
    );
  }
  const recorded = new ReadResp.ReadEvent.RecordedEvent()
    .setId(id)
    .setStreamIdentifier(new StreamIdentifier().setStreamName(Buffer.from(event.stream, 'utf8')))
    .setStreamRevision(event.revision.toString())
    .setCommitPosition(event.position.toString())
    .setPreparePosition(event.position.toString())
    .setData(event.data)
    .setCustomMetadata(event.metadata);
  recorded
    .getMetadataMap()
    .set('type', event.type)
    .set('content-type', event.contentType)
    .set('created', event.created.toString());
  return recorded;
}
